import AuthCore
import Foundation
import LatchConfig
import PostgresClient

/// latchctl: the operators' CLI. Parses the command line against `CommandTree`, runs the command against the
/// database, prints a table or JSON, and exits 0 (done), 1 (the operation failed) or 2 (usage or configuration).
@main
struct LatchControl {
    static func main() {
        exit(run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
    }

    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let parser = ArgumentParser(root: CommandTree.root, globalOptions: GlobalOptions.specs)
        let invocation: ArgumentParser.Invocation
        let action: CommandSpec.Action
        let globals: GlobalOptions
        do {
            invocation = try parser.parse(arguments)
            if invocation.wantsHelp {
                write(HelpText.render(
                    path: invocation.path, command: invocation.command, globalOptions: GlobalOptions.specs), to: .standardOutput)
                return 0
            }
            guard let found = invocation.command.action else {
                let line = invocation.commandLine
                return fail("missing command for '\(line)'; see '\(line) --help'", code: 2)
            }
            action = found
            globals = try GlobalOptions(arguments: invocation.arguments, environment: environment)
        } catch {
            return fail(error.message, code: 2)
        }
        let context = CommandContext(globals: globals, environment: environment)
        defer { context.close() }
        do {
            let output = try action(invocation.arguments, context)
            write(output.rendered(asJSON: globals.json), to: .standardOutput)
            return 0
        } catch {
            let (message, code) = describe(error)
            return fail(message, code: code)
        }
    }

    /// The one-line message and exit code of a failure. Port errors (database, migrations) carry no parameter
    /// values, so they are safe to print.
    static func describe(_ error: any Error) -> (String, Int32) {
        switch error {
        case let error as UsageError: (error.message, 2)
        case let error as ConfigurationError: ("invalid configuration: \(error)", 2)
        case let error as AuthError: (error.message, 1)
        case let error as PostgresError where error.isConnectionFailure: ("cannot reach the database: \(error)", 1)
        default: (String(describing: error), 1)
        }
    }

    /// One line on stderr; the message may quote a value from the database or the command line, whose control
    /// characters are escaped (`VisibleText`).
    private static func fail(_ message: String, code: Int32) -> Int32 {
        let line = VisibleText.escaped(message.split(whereSeparator: \.isNewline).joined(separator: " "))
        write("latchctl: \(line)\n", to: .standardError)
        return code
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
