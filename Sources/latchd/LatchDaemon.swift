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

        let configuration: LatchConfiguration
        do {
            configuration = try ConfigurationLoader(
                environment: ProcessInfo.processInfo.environment, arguments: arguments
            ).load()
        } catch {
            FileHandle.standardError.write(Data("latchd: invalid configuration: \(error)\n".utf8))
            exit(2)
        }

        let log = LogWriter()
        LatchApplication.logLibraryPanics(to: log)
        let application: LatchApplication
        do {
            application = try LatchApplication(configuration: configuration, log: log)
            try application.start()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("latchd: invalid configuration: \(error)\n".utf8))
            exit(2)
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
