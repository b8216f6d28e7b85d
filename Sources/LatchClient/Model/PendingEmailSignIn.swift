import Foundation

/// A sign-in by mail this app instance asked for and has not completed: the address, the binding secret S whose
/// SHA-256 the mail is bound to (see `EmailSignInBinding`), and when the mail was last asked for.
///
/// `LatchClient` keeps one at a time in its `SessionStore`, apart from the session, so the link still completes
/// after the app was killed while the user read the mail. It is as secret as a session for its short life: with
/// the link or the code it signs in. Its printed forms never show S.
public struct PendingEmailSignIn: Hashable, Sendable, Codable {
    /// How long after the latest request the attempt may complete (15 minutes, latchd's default lifetime of a
    /// sign-in mail, `LATCH_SIGNIN_TTL`); later it counts as none, and the next request makes a new secret.
    public static let lifetime: TimeInterval = 15 * 60

    /// The address as typed (trimmed); matched case-insensitively.
    public let email: String
    /// S: 32 random bytes made on this device, never sent before the link or code is redeemed.
    public let bindingSecret: Data
    /// When a mail was last asked for with this secret: a second request within `lifetime` reuses the secret and
    /// moves this on.
    public let requestedAt: Date

    public init(email: String, bindingSecret: Data, requestedAt: Date) {
        self.email = email
        self.bindingSecret = bindingSecret
        self.requestedAt = requestedAt
    }

    enum CodingKeys: String, CodingKey {
        case email
        case bindingSecret = "binding_secret"
        case requestedAt = "requested_at"
    }

    /// Whether it may still complete at `now`: asked for less than `lifetime` ago. A device clock set back by more
    /// than `lifetime` since counts as expired too, so a wrong clock cannot keep a secret alive.
    func isLive(at now: Date) -> Bool {
        abs(now.timeIntervalSince(requestedAt)) < Self.lifetime
    }

    /// Whether it was asked for `email`: addresses are compared case-insensitively, as the server does.
    func isFor(_ email: String) -> Bool {
        self.email.caseInsensitiveCompare(email) == .orderedSame
    }
}

extension PendingEmailSignIn: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `PendingEmailSignIn(ada@example.com, requested …)`: the secret is left out.
    public var description: String { "PendingEmailSignIn(\(email), requested \(requestedAt))" }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: everything but the secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["email": email, "bindingSecret": "<redacted>", "requestedAt": requestedAt],
               displayStyle: .struct)
    }
}
