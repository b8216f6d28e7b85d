import AuthCore
import AuthCoreTesting
import DeepLinkRouting
import Foundation
import HTTPServer
@testable import LatchHTTP
import TestKit

/// `LatchAPI` and `WebRoutes` on one router over in-memory fakes, as latchd registers them, driven in-process.
/// Browser-like requests carry the headers a same-origin form POST carries, so each test can take one away.
final class WebHarness: Sendable {
    static let linkBase = "https://links.example.com"
    static let origin = "https://links.example.com"
    static let cookieName = "__Host-latch_csrf"

    let store = InMemoryAuthStore()
    let clock = ManualClock()
    let codes = SequentialCodes()
    let pool = WorkerPool(name: "test-web", threads: 1, queueCapacity: 4)
    let generator = SequentialTokenGenerator()
    let auth: AuthService
    let router: Router
    /// The admin API's routes, as latchd registers them on its private listener (users listed from no store).
    let adminRouter: Router
    let reported = Locked<[String]>([])

    /// `identityProviders` adds their sign-in routes (`/v1/signin/<name>`), which exist only for configured ones.
    init(productName: String = "Acme", wellKnown: WellKnownConfiguration = WellKnownConfiguration(),
         linkBase: String = WebHarness.linkBase, additionalHosts: [String] = [],
         identityProviders: [String: IdentityProvider] = [:]) throws {
        let ports = AuthPorts(store: store, hasher: FakeHasher(), tokenGenerator: generator,
                              accessTokens: FakeAccessTokenSigner(), codes: codes, clock: clock,
                              composer: RecordingComposer(), secondFactors: FakeSecondFactorSecrets(),
                              passkeys: FakePasskeyVerifier())
        let links = DeepLinkConfiguration(appScheme: "myapp", linkBase: URL(string: linkBase)!,
                                          additionalHosts: additionalHosts)
        var configuration = AuthConfiguration(deepLinks: links)
        configuration.identityProviders = identityProviders
        auth = try AuthService(
            configuration: configuration, ports: ports,
            passwordPolicy: PasswordPolicy(commonPasswords: CommonPasswords(["password1234"])))
        let reported = self.reported
        let api = LatchAPI(auth: auth, hashingPool: pool, isReady: { true })
        let web = WebRoutes(productName: productName, deepLinks: links, wellKnown: wellKnown, auth: auth,
                            hashingPool: pool, errorReporter: { route, _ in reported.update { $0.append(route) } })
        var router = Router()
        api.register(on: &router)
        web.register(on: &router)
        self.router = router
        var adminRouter = Router()
        api.registerAdmin(on: &adminRouter, directory: NoAdminUsers(), records: NoAdminRecords())
        self.adminRouter = adminRouter
    }

    /// An empty directory: the admin routes' registration, not their reads, is what the harness is for.
    struct NoAdminUsers: AdminUserDirectory {
        func adminUsers(_ query: AdminUserQuery) throws -> [AdminUserView] { [] }
        func adminUser(id: UserID) throws -> AdminUserView? { nil }
    }

    /// An empty audit log and outbox, for the same reason.
    struct NoAdminRecords: AdminRecords {
        func adminAudit(_ query: AdminAuditQuery) throws -> [AuditEntry] { [] }
        func adminOutbox(_ query: AdminOutboxQuery) throws -> [OutboxEntry] { [] }
        func outboxEntry(id: Int64) throws -> OutboxEntry? { nil }
        func retryOutbox(id: Int64?, now: Date) throws -> OutboxRetryResult { OutboxRetryResult(retried: 0, unrecoverable: 0) }
    }

    deinit { pool.shutdown() }

    /// - Parameter admin: send to the admin API's router (the private listener) instead of the public one.
    func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = "",
              admin: Bool = false) -> HTTPResponse {
        var request = HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8),
                                  clientAddress: "203.0.113.9")
        let match = (admin ? adminRouter : router).resolve(request)
        request.parameters = match.parameters
        let response = APIHarness.answer(match, request, reported: reported)
        // Mail asked for by address goes out at once, as latchd's resolver sends it on its next beat.
        _ = try? auth.resolveAllDeferredMail()
        return response
    }

    func get(_ target: String, cookie: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let cookie { headers.add(name: "Cookie", value: "\(Self.cookieName)=\(cookie)") }
        return send(.get, target, headers: headers)
    }

    func postJSON(_ path: String, _ json: String) -> HTTPResponse {
        send(.post, path, headers: ["Content-Type": "application/json"], body: json)
    }

    /// A form POST as Chrome sends it from our page under `Referrer-Policy: no-referrer`: `Origin: null`,
    /// `Sec-Fetch-Site: same-origin`, the cookie. Pass nil to leave a header out.
    func postForm(
        _ path: String, _ fields: [(String, String)], cookie: String?,
        origin: String? = "null", fetchSite: String? = "same-origin",
        contentType: String = "application/x-www-form-urlencoded", acceptLanguage: String? = nil
    ) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let acceptLanguage { headers.add(name: "Accept-Language", value: acceptLanguage) }
        if let origin { headers.add(name: "Origin", value: origin) }
        if let fetchSite { headers.add(name: "Sec-Fetch-Site", value: fetchSite) }
        if let cookie { headers.add(name: "Cookie", value: "theme=dark; \(Self.cookieName)=\(cookie)") }
        return send(.post, path, headers: headers, body: Self.encode(fields))
    }

    /// Form encoding as browsers do it: unreserved characters kept, space as `+`, the rest percent-escaped.
    static func encode(_ fields: [(String, String)]) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._* ")
        func escape(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "").replacingOccurrences(of: " ", with: "+")
        }
        return fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// Signs up `email` over the JSON API and returns the confirm token from the mail.
    func signUp(_ email: String = "ada@example.com", password: String = "correct horse") throws -> String {
        let response = postJSON("/v1/signup", #"{"email":"\#(email)","password":"\#(password)"}"#)
        guard response.status == .accepted else { throw Failure.setup("signup \(response.status)") }
        return try mailedToken(.confirmEmail, to: email)
    }

    /// Asks for a sign-in mail to `email` as an app instance does, and returns the mailed token and that instance's
    /// secret (redeeming the token needs it). Through `AuthService`, as the flow behind `POST /v1/signin/email`.
    func requestSignIn(_ email: String = "ada@example.com") throws -> (token: String, secret: String) {
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        _ = try auth.requestEmailSignIn(email: email, binding: Self.base64URL(generator.digest(bytes: secret)),
                                        ip: "203.0.113.9", userAgent: "Harness")
        _ = try auth.resolveAllDeferredMail()
        return (try mailedToken(.signIn, to: email), Self.base64URL(secret))
    }

    static func base64URL(_ bytes: Data) -> String {
        bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    func mailedToken(_ kind: MailKind, to email: String) throws -> String {
        guard let link = store.mails.last(where: { $0.kind == kind && $0.recipient == email })?.deepLink,
              let token = URLComponents(url: link, resolvingAgainstBaseURL: false)?
                .queryItems?.first(where: { $0.name == "token" })?.value
        else { throw Failure.setup("no \(kind) mail") }
        return token
    }

    /// The CSRF cookie a landing page's GET set (the value before the first `;`).
    static func csrfCookie(of response: HTTPResponse) -> String? {
        guard let header = response.headers["Set-Cookie"], header.hasPrefix(cookieName + "=") else { return nil }
        return String(header.dropFirst(cookieName.count + 1).prefix { $0 != ";" })
    }

    enum Failure: Error {
        case setup(String)
    }
}
