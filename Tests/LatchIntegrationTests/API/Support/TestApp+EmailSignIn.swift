import AuthCore
import DeepLinkRouting
import Foundation
import LatchCrypto
import LatchTestSupport
import Testing

/// The secret S one app instance keeps for one sign-in-by-mail attempt: the request sends base64url(SHA-256(S)) as
/// `binding`, the redemption base64url(S) as `binding_secret`.
struct SignInSecret: Sendable {
    let bytes: Data

    init() {
        var generator = SystemRandomNumberGenerator()
        bytes = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    var binding: String { Base64URL.encode(SHA256.hash(bytes)) }
    var secret: String { Base64URL.encode(bytes) }
}

/// The answer of `POST /v1/reauthenticate`.
struct ReauthenticatedJSON: Decodable, Sendable {
    let access_token: String
    let access_token_expires_at: String
    let reauthenticated_until: String

    var bearer: [(String, String)] { [("Authorization", "Bearer \(access_token)")] }
}

/// Sign-in by mail and re-authentication over real HTTP, the mails read from their outbox rows (the workers are
/// off, so the rows still hold the link and the code) as the app and its user would read them.
extension TestApp {
    /// One sign-in mail: the token of its signIn link (parsed by DeepLinkRouting as the app does) and the code
    /// shown beside it, as typed (digits only).
    struct SignInMail: Sendable {
        let token: String
        let code: String
    }

    func requestEmailSignIn(_ email: String, _ secret: SignInSecret) throws -> HTTPTestClient.Response {
        try post("/v1/signin/email", fields: ["email": email, "binding": secret.binding])
    }

    /// The link form, with the secret as given (a test may present someone else's, or none of a real S).
    func verifyEmailSignIn(token: String, secret: String) throws -> HTTPTestClient.Response {
        try post("/v1/signin/email/verify", fields: ["token": token, "binding_secret": secret])
    }

    /// The code form.
    func verifyEmailSignIn(email: String, code: String, secret: String) throws -> HTTPTestClient.Response {
        try post("/v1/signin/email/verify", fields: ["email": email, "code": code, "binding_secret": secret])
    }

    /// Every sign-in mail to `email`, oldest first.
    func signInMails(to email: String) throws -> [SignInMail] {
        try settleDeferredMail()
        return try pool.query(
            "SELECT deep_link, text_body FROM outbox WHERE recipient = $1 AND kind = $2 ORDER BY id",
            [email, MailKind.signIn.rawValue]
        ).map { row in
            guard let text = try row.decode(String?.self, column: 0), let url = URL(string: text),
                  case .signIn(let token)? = parser.parse(url).link
            else { throw FlowError.noToken(email) }
            return SignInMail(token: token, code: try Self.typedCode(in: try row.decode(String.self, column: 1)))
        }
    }

    /// The newest sign-in mail to `email`.
    func signInMail(to email: String) throws -> SignInMail {
        guard let mail = try signInMails(to: email).last else { throw FlowError.noToken(email) }
        return mail
    }

    /// The code of the newest mail of `kind` to `email`, as typed from its text body (digits only).
    func mailedCode(to email: String, kind: MailKind) throws -> String {
        guard let text = try pool.query(
            "SELECT text_body FROM outbox WHERE recipient = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
            [email, kind.rawValue]
        ).first?.decode(String.self, column: 0) else { throw FlowError.noToken(email) }
        return try Self.typedCode(in: text)
    }

    /// The 8 digits after "Or type this code in the app:" (shown as `1234 5678`).
    static func typedCode(in text: String) throws -> String {
        guard let marker = text.range(of: "Or type this code in the app:") else { throw FlowError.noToken(text) }
        let shown = text[marker.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines).prefix(9)
        let code = shown.filter { $0 != " " }
        guard code.count == 8, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else {
            throw FlowError.noToken(String(shown))
        }
        return String(code)
    }

    /// Asks for a sign-in mail to `email` and redeems its link with `secret`: the session, which must be opened.
    func emailSignIn(_ email: String, _ secret: SignInSecret = SignInSecret()) throws -> SessionJSON {
        let asked = try requestEmailSignIn(email, secret)
        guard asked.status == 202 else { throw FlowError.unexpected(asked.status, asked.text) }
        let verified = try verifyEmailSignIn(token: try signInMail(to: email).token, secret: secret.secret)
        guard verified.status == 200 else { throw FlowError.unexpected(verified.status, verified.text) }
        return try verified.json(SessionJSON.self)
    }

    /// `POST /v1/reauthenticate/email` as the holder of `bearer`.
    func requestReauthenticationCode(bearer: String) throws -> HTTPTestClient.Response {
        try send("POST", "/v1/reauthenticate/email", bearer: bearer)
    }

    /// `POST /v1/reauthenticate` with `{"email_code"}` or `{"password"}`.
    func reauthenticate(bearer: String, emailCode: String? = nil, password: String? = nil) throws
        -> HTTPTestClient.Response
    {
        var fields: [String: String] = [:]
        fields["email_code"] = emailCode
        fields["password"] = password
        return try send("POST", "/v1/reauthenticate", fields, bearer: bearer)
    }

    /// Mails a re-authentication code to the session of `bearer` and proves it with that code: the new access
    /// token, which must be issued.
    func reauthenticateByMail(bearer: String, email: String) throws -> ReauthenticatedJSON {
        let asked = try requestReauthenticationCode(bearer: bearer)
        guard asked.status == 202 else { throw FlowError.unexpected(asked.status, asked.text) }
        let proven = try reauthenticate(bearer: bearer, emailCode: try mailedCode(to: email, kind: .reauthenticationCode))
        guard proven.status == 200 else { throw FlowError.unexpected(proven.status, proven.text) }
        return try proven.json(ReauthenticatedJSON.self)
    }
}

extension HTTPTestClient.Response {
    /// Every value of the header `name` (case-insensitive), in order.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}
