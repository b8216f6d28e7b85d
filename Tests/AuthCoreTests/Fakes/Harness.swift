import AuthCore
import AuthCoreTesting
import DeepLinkRouting
import Foundation

/// A service wired to fresh fakes, plus shortcuts to the states the tests start from.
struct Harness {
    /// Loaded once for the whole test run (it is the real shipped list).
    static let policy: PasswordPolicy = {
        do { return PasswordPolicy(commonPasswords: try .bundled()) } catch { fatalError("common list: \(error)") }
    }()

    static let deepLinks = DeepLinkConfiguration(appScheme: "myapp", linkBase: URL(string: "https://links.example.com")!)

    let store = InMemoryAuthStore()
    let hasher = FakeHasher()
    let generator = SequentialTokenGenerator()
    let codes = SequentialCodes()
    let accessTokens = FakeAccessTokenSigner()
    let clock = ManualClock()
    let composer = RecordingComposer()
    let secondFactors = FakeSecondFactorSecrets()
    /// What the WebAuthn checks answer (refusal unless a test says otherwise).
    let passkeys: FakePasskeyVerifier
    /// What the id_token checks and the provider's token endpoints answer.
    let providers: FakeIdentityProviders
    let service: AuthService

    static let password = "correct horse battery"
    static let ip = "203.0.113.7"
    static let agent = "TestAgent/1.0"

    init(passkeys: FakePasskeyVerifier = FakePasskeyVerifier(), providers: FakeIdentityProviders = FakeIdentityProviders(),
         configure: (inout AuthConfiguration) -> Void = { _ in }) {
        self.passkeys = passkeys
        self.providers = providers
        var configuration = AuthConfiguration(deepLinks: Self.deepLinks)
        configure(&configuration)
        let ports = AuthPorts(store: store, hasher: hasher, tokenGenerator: generator,
                              accessTokens: accessTokens, codes: codes, clock: clock,
                              composer: composer, secondFactors: secondFactors,
                              passkeys: passkeys, identityTokens: providers, providerTokens: providers)
        service = try! AuthService(configuration: configuration, ports: ports, passwordPolicy: Self.policy)
    }

    /// Signs up and returns the raw confirm token (the last token made, which went into the mail).
    @discardableResult
    func signUp(_ email: String = "alice@example.com", password: String = Harness.password) throws -> String {
        _ = try service.signUp(email: email, password: password, ip: Self.ip, userAgent: Self.agent)
        return generator.lastToken!
    }

    /// Signs up and confirms; returns the session confirm issued.
    @discardableResult
    func confirmedUser(_ email: String = "alice@example.com", password: String = Harness.password) throws -> IssuedSession {
        let token = try signUp(email, password: password)
        return try service.confirm(token: token, ip: Self.ip, userAgent: Self.agent)
    }

    /// A password sign-in that must open a session (a user without a second factor).
    func signIn(_ email: String = "alice@example.com", password: String = Harness.password) throws -> IssuedSession {
        try signInOutcome(email, password: password).session.unwrapped("a session, not a second-factor challenge")
    }

    func signInOutcome(_ email: String = "alice@example.com", password: String = Harness.password) throws -> SignInOutcome {
        try service.signIn(email: email, password: password, ip: Self.ip, userAgent: Self.agent)
    }

    /// Forgot password, then the mail it queued resolved, as latchd's resolver does on its next beat.
    func forgotPassword(_ email: String, ip: String? = Harness.ip) throws {
        try service.forgotPassword(email: email, ip: ip)
        try service.resolveAllDeferredMail()
    }

    /// Resend, then the mail it queued resolved, as latchd's resolver does on its next beat.
    @discardableResult
    func resendConfirmation(_ email: String, ip: String? = Harness.ip) throws -> SignUpOutcome {
        let outcome = try service.resendConfirmation(email: email, ip: ip)
        try service.resolveAllDeferredMail()
        return outcome
    }

    func user(_ email: String = "alice@example.com") -> UserRecord? {
        try? store.findUser(email: EmailAddress(email))
    }

    /// Every string in the audit log (ip, user ids, detail keys and values), for secret scans.
    var auditStrings: [String] {
        store.snapshot.audit.flatMap { event in
            [event.ip ?? "", event.userID?.description ?? ""] + Array(event.detail.keys) + Array(event.detail.values)
        }
    }
}

/// A value a test expected to be there.
struct MissingValue: Error, CustomStringConvertible {
    let description: String
}

extension Optional {
    func unwrapped(_ what: String) throws -> Wrapped {
        guard let self else { throw MissingValue(description: "expected \(what)") }
        return self
    }
}
