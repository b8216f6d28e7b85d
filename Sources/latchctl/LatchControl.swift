@main
struct LatchControl {
    static func main() {}
}
