import Foundation
import LatchApp
import LatchConfig

/// latchd: reads its configuration, applies migrations, serves the API and sends mail until SIGTERM or SIGINT.
@main
struct LatchDaemon {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage())
            return
        }
        // A peer or log reader that went away must not kill the daemon: writes then fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
        // Before any thread starts, so every thread inherits the mask and only `wait()` receives the signals.
        let signals = ShutdownSignals()
        signals.block()

        // Before the configuration, so that even its errors reach standard error as JSON lines like every other.
        let log = LogWriter()
        let configuration: LatchConfiguration
        do {
            configuration = try ConfigurationLoader(
                environment: ProcessInfo.processInfo.environment, arguments: arguments
            ).load()
        } catch {
            exitInvalidConfiguration(error, log: log)
        }

        LatchApplication.logLibraryPanics(to: log)
        let application: LatchApplication
        do {
            application = try LatchApplication(configuration: configuration, log: log)
            try application.start()
        } catch let error as ConfigurationError {
            exitInvalidConfiguration(error, log: log)
        } catch {
            log.log("startup failed", ["error": .string(String(describing: error))])
            exit(1)
        }
        log.log("latchd listening", ["address": .string("\(configuration.listen.host):\(application.port)")])
        if let metrics = configuration.metricsListen, let port = application.metricsPort {
            log.log("metrics listening", ["address": .string("\(metrics.host):\(port)"), "path": .string("/metrics")])
        }

        let signal = signals.wait()
        log.log("shutting down", ["signal": .string(signal)])
        application.stop()
        log.log("stopped")
    }

    /// Exit code 2 tells an operator (or an orchestrator) that retrying will not help until the setting is fixed.
    static func exitInvalidConfiguration(_ error: any Error, log: LogWriter) -> Never {
        var fields: [String: LogValue] = ["error": .string(String(describing: error))]
        if let error = error as? ConfigurationError {
            fields["variable"] = .string(error.variable)
        }
        log.log("invalid configuration", fields)
        exit(2)
    }

    static func usage() -> String {
        var text = """
            usage: latchd [--FLAG VALUE ...]

            Every setting is an environment variable; --flag-name VALUE sets LATCH_FLAG_NAME
            (--database-url sets DATABASE_URL). Flags win over the environment.

            \(ConfigurationLoader.secretFilesHelp)

            """
        for variable in ConfigurationLoader.variables {
            let fallback = variable.defaultValue.map { " (default: \($0))" } ?? ""
            text += "  \(variable.name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(variable.help)\(fallback)\n"
        }
        return text
    }
}
