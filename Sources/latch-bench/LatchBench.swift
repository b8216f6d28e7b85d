import Foundation
import LatchCrypto

/// `latch-bench`: the Swift half of `make bench` (scripts/bench drives the load run).
///
///     latch-bench hash-password PASSWORD          a PHC string at the default Argon2id parameters (for seeding)
///     latch-bench micro [--database-url URL] [--only ID,ID…] [--json FILE]
///     latch-bench report --wrk FILE --micro FILE[,FILE…] --rss-idle KIB --rss-idle-anon KIB
///                        --rss-load KIB --cores N --threads N --hash-workers N [--loadavg TEXT] [--json FILE]
@main
struct LatchBench {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            try run(arguments)
        } catch let error as BenchError {
            FileHandle.standardError.write(Data("latch-bench: \(error)\n".utf8))
            exit(error.exitCode)
        } catch {
            FileHandle.standardError.write(Data("latch-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw BenchError.usage("latch-bench hash-password|micro|report …") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "hash-password":
            guard rest.count == 1 else { throw BenchError.usage("latch-bench hash-password PASSWORD") }
            print(try Argon2idHasher(parameters: .owasp).hash(rest[0]))
        case "micro":
            let options = try BenchArguments(rest)
            let only = options.optional("only").map { Set($0.split(separator: ",").map(String.init)) }
            let results = try MicroSuite(databaseURL: options.optional("database-url")).run(only: only)
            print(MicroTable.render(results))
            if let path = options.optional("json") { try write(results, to: path) }
        case "report":
            let options = try BenchArguments(rest)
            let report = try BenchReport.load(options)
            print(ReportTable(report: report).render())
            if let path = options.optional("json") { try write(report, to: path) }
        default:
            throw BenchError.usage("unknown command '\(command)' (hash-password, micro, report)")
        }
    }

    private static func write(_ value: some Encodable, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(value).write(to: URL(fileURLWithPath: path))
    }
}
