import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a string is a literal IPv4 or IPv6 address, by the C library's own parser.
enum IPAddressText {
    static func isValid(_ text: String) -> Bool {
        // An IPv6 text form is at most 45 characters; the check also keeps junk away from inet_pton.
        guard !text.isEmpty, text.utf8.count <= 45 else { return false }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return true }
        var v6 = in6_addr()
        return inet_pton(AF_INET6, text, &v6) == 1
    }
}
