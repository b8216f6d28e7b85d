/// What a right first factor did: signed in, or (for an account with a second factor) nothing yet but a ticket
/// for the second step. `signIn(email:password:)` and `completeEmailSignIn` answer this.
public enum SignInResult: Hashable, Sendable {
    /// Signed in: the session is stored and `authStateChanges()` reported the user.
    case signedIn(User)
    /// The account asks for its second factor: no session exists and nothing was stored. Ask for a code of one of
    /// `methods` and call `completeMFA(ticket:code:)` or `completeMFA(ticket:recoveryCode:)` before
    /// `ticket.expiresAt`; `signOut()` gives up. `authStateChanges()` reported `secondFactorRequired`.
    case mfaRequired(ticket: MFATicket, methods: [MFAMethod])

    /// The user, when signed in.
    public var user: User? {
        if case .signedIn(let user) = self { user } else { nil }
    }
}

extension SignInResult: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `mfaRequired(methods: [totp, recovery_code])`: never the ticket.
    public var description: String {
        switch self {
        case .signedIn(let user): "signedIn(\(user.email))"
        case .mfaRequired(_, let methods): "mfaRequired(methods: \(methods.map(\.rawValue)))"
        }
    }

    public var debugDescription: String { "SignInResult." + description }

    public var customMirror: Mirror {
        switch self {
        case .signedIn(let user): Mirror(self, children: ["signedIn": user], displayStyle: .enum)
        case .mfaRequired(let ticket, let methods):
            Mirror(self, children: ["ticket": ticket, "methods": methods], displayStyle: .enum)
        }
    }
}
