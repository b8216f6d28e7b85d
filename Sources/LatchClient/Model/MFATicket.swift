import Foundation

/// The server's proof that a sign-in's first factor was right, for its second step (`mfa_ticket`): with a code of
/// the second factor it signs in, so it is as secret as a session for its short life. The client keeps it in memory
/// only: a sign-in that waits for its second factor does not survive a relaunch. Its printed forms never show it.
public struct MFATicket: Hashable, Sendable {
    /// The ticket as the server sent it (43 characters of base64url).
    public let value: String
    /// When the server forgets it (`expires_in`, 5 minutes, after the answer, by this device's clock); later,
    /// `completeMFA` refuses it without asking (`invalidMFATicket`): sign in again.
    public let expiresAt: Date

    public init(value: String, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }

    /// Whether the second step may still be tried at `now`.
    func isLive(at now: Date) -> Bool {
        now < expiresAt
    }
}

extension MFATicket: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `MFATicket(until …)`: the ticket itself is left out.
    public var description: String { "MFATicket(until \(expiresAt))" }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: everything but the ticket.
    public var customMirror: Mirror {
        Mirror(self, children: ["value": "<redacted>", "expiresAt": expiresAt], displayStyle: .struct)
    }
}
