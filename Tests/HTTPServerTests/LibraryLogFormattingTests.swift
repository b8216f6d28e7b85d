import CMicroHTTPD
import Foundation
@testable import HTTPServer
import TestKit
import Testing

/// The shim's `latch_mhd_log_formatter`, called as libmicrohttpd calls it: a format and a `va_list`.
@Suite struct LibraryLogFormattingTests {
    private func log(_ format: String, _ arguments: [any CVarArg]) -> [String] {
        let received = Locked<[String]>([])
        let library = LibraryLog { message in received.update { $0.append(message) } }
        withVaList(arguments) { list in
            latch_mhd_log_formatter(UnsafeMutableRawPointer(library.logger), format, list)
        }
        return received.value
    }

    @Test func formatsTheArgumentsAndDropsTheTrailingNewline() {
        let messages = "Broken pipe".withCString { reason in
            log("Failed to send data in request for %s (code %u).\n", [reason, UInt32(503)])
        }
        #expect(messages == ["Failed to send data in request for Broken pipe (code 503)."])
    }

    @Test func cutsAnOverlongMessageInsteadOfOverrunningItsBuffer() {
        let path = String(repeating: "a", count: 5_000)
        let messages = path.withCString { log("request for `%s'\n", [$0]) }
        #expect(messages.count == 1)
        #expect(messages.first?.count == 1_023, "the shim's buffer, less its terminating NUL")
    }

    @Test func aBlankMessageIsDropped() {
        #expect(log("\n", []).isEmpty)
    }
}
