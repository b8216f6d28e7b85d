#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary C array of C strings (`const char *const *`), NULL entries allowed, for libpq's array arguments.
///
/// Strings are copied with strdup for the duration of one call; that costs far less than the round trip it feeds.
struct CStringArray {
    private let strings: [String?]

    init(_ strings: [String?]) { self.strings = strings }

    func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> R) rethrows -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { string in string.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { try body($0.baseAddress) }
    }
}
