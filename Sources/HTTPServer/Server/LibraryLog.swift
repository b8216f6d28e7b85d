import CMicroHTTPD

/// Where libmicrohttpd's own messages go (`MHD_OPTION_EXTERNAL_LOGGER`): to `HTTPServer`'s `onLibraryMessage`
/// instead of raw lines on standard error, which would break a log made of JSON lines.
///
/// libmicrohttpd formats nothing itself: it hands a format and a `va_list` to its logger, which Swift cannot
/// format. The shim's `latch_mhd_log_formatter` formats them and calls `MHDCallbacks.libraryMessage` with the text
/// and the context held in `logger`, which is this object.
final class LibraryLog: @unchecked Sendable {
    // @unchecked: `logger` is written only in `init`; afterwards libmicrohttpd's threads only read it.

    private let sink: @Sendable (String) -> Void
    /// The option's `cls`. Allocated here so its address stays fixed for as long as the daemon may log, which
    /// `ServerContext` (this object's owner) outlives.
    let logger: UnsafeMutablePointer<latch_mhd_logger>

    init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
        logger = .allocate(capacity: 1)
        logger.initialize(to: latch_mhd_logger(callback: MHDCallbacks.libraryMessage, context: nil))
        logger.pointee.context = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        logger.deinitialize(count: 1)
        logger.deallocate()
    }

    /// One formatted message; libmicrohttpd ends each with a newline, which a log line does not need.
    func deliver(_ message: UnsafePointer<CChar>) {
        var text = String(cString: message)
        while let last = text.last, last.isWhitespace {
            text.removeLast()
        }
        guard !text.isEmpty else { return }
        sink(text)
    }
}
