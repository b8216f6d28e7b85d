@main
struct LatchDaemon {
    static func main() {}
}
