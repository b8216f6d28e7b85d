import CMicroHTTPD
import Foundation
import Synchronization

/// An internal inconsistency libmicrohttpd cannot continue from (its `MHD_PANIC`), with where it was detected.
public struct HTTPServerPanic: Sendable, Equatable, CustomStringConvertible {
    /// libmicrohttpd's source file and line, e.g. `daemon.c`, 5531.
    public var file: String
    public var line: Int
    public var reason: String

    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(file):\(line): \(reason)" }
}

extension HTTPServer {
    /// Makes `report` the first thing to run when libmicrohttpd panics, e.g. to write a log line naming the
    /// location. The process aborts right after it returns, since libmicrohttpd cannot go on; `report` runs on the
    /// thread that panicked, possibly holding libmicrohttpd's locks, so it must only write and return.
    /// Process-wide (`MHD_set_panic_func`); the last call wins.
    public static func setPanicHandler(_ report: @escaping @Sendable (HTTPServerPanic) -> Void) {
        MHDPanic.handler.withLock { $0 = report }
        MHD_set_panic_func(MHDPanic.callback, nil)
    }
}

/// The C side of `HTTPServer.setPanicHandler`.
enum MHDPanic {
    static let handler = Mutex<(@Sendable (HTTPServerPanic) -> Void)?>(nil)

    static let callback: MHD_PanicCallback = { _, file, line, reason in
        report(file: file, line: line, reason: reason)
        abort()
    }

    /// Hands the panic to the installed handler (or writes MHD's own message to standard error) and returns it.
    @discardableResult
    static func report(file: UnsafePointer<CChar>?, line: UInt32, reason: UnsafePointer<CChar>?) -> HTTPServerPanic {
        let panic = HTTPServerPanic(
            file: file.map { String(cString: $0) } ?? "unknown", line: Int(line),
            reason: reason.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        if let handler = handler.withLock({ $0 }) {
            handler(panic)
        } else {
            FileHandle.standardError.write(Data("Fatal error in GNU libmicrohttpd \(panic)\n".utf8))
        }
        return panic
    }
}
