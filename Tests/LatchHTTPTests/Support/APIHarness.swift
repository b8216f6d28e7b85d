import AuthCore
import AuthCoreTesting
import DeepLinkRouting
import Foundation
import HTTPServer
@testable import LatchHTTP
import TestKit

/// A `LatchAPI` over in-memory fakes, driven in-process through `Router.resolve` and the matched handler
/// (the pool a route names is ignored here: the handler runs on the test's thread).
final class APIHarness: Sendable {
    static let peerAddress = "203.0.113.7"

    let store = InMemoryAuthStore()
    let hasher = FakeHasher()
    let clock = ManualClock()
    let codes = SequentialCodes()
    let accessTokens = FakeAccessTokenSigner()
    let pool = WorkerPool(name: "test-hash", threads: 1, queueCapacity: 4)
    let auth: AuthService
    let api: LatchAPI
    let router: Router
    /// The metrics listener's router, apart from the API's as in latchd.
    let metricsRouter: Router
    let ready = Locked(true)
    let reported = Locked<[String]>([])

    init(trustProxy: Bool = false, rateLimits: AuthRateLimits = AuthRateLimits(),
         metricsSource: (any MetricsSource)? = nil) throws {
        let ports = AuthPorts(store: store, hasher: hasher, tokenGenerator: SequentialTokenGenerator(),
                              accessTokens: accessTokens, codes: codes, clock: clock,
                              composer: RecordingComposer(), secondFactors: FakeSecondFactorSecrets(),
                              passkeys: FakePasskeyVerifier())
        let links = DeepLinkConfiguration(appScheme: "myapp", linkBase: URL(string: "https://links.example.com")!)
        auth = try AuthService(
            configuration: AuthConfiguration(rateLimits: rateLimits, deepLinks: links), ports: ports,
            passwordPolicy: PasswordPolicy(commonPasswords: CommonPasswords(["password1234"]))
        )
        let ready = self.ready
        api = LatchAPI(auth: auth, hashingPool: pool, isReady: { ready.value },
                       metricsSource: metricsSource, trustProxy: trustProxy)
        var router = Router()
        api.register(on: &router)
        self.router = router
        var metricsRouter = Router()
        api.registerMetrics(on: &metricsRouter)
        self.metricsRouter = metricsRouter
    }

    deinit { pool.shutdown() }

    /// Sends one request through the router. `json` becomes the body with `contentType`.
    func send(
        _ method: HTTPMethod, _ target: String, json: String? = nil, contentType: String? = "application/json",
        headers: HTTPHeaders = HTTPHeaders(), clientAddress: String = APIHarness.peerAddress
    ) -> HTTPResponse {
        var headers = headers
        if json != nil, let contentType { headers.add(name: "Content-Type", value: contentType) }
        var request = HTTPRequest(method: method, target: target, headers: headers, body: Array((json ?? "").utf8),
                                  clientAddress: clientAddress)
        let match = router.resolve(request)
        request.parameters = match.parameters
        let response = Self.answer(match, request, reported: reported)
        // Mail asked for by address goes out at once, as latchd's resolver sends it on its next beat.
        _ = try? auth.resolveAllDeferredMail()
        return response
    }

    /// What the server does with a match: run it (errors answered by their own type, others by LatchAPI's
    /// unexpected-error handler, reported here), and add the API's default headers.
    static func answer(_ match: HTTPRouteMatch, _ request: HTTPRequest, reported: Locked<[String]>) -> HTTPResponse {
        var response = match.respond(to: request, unexpected: LatchAPI.unexpectedErrorHandler { route, _ in
            reported.update { $0.append(route) }
        })
        response.addHeaders(ifMissing: LatchAPI.defaultHeaders)
        return response
    }

    /// `GET path` on the metrics listener's router.
    func scrape(_ path: String = "/metrics") -> HTTPResponse {
        let request = HTTPRequest(method: .get, target: path, headers: HTTPHeaders(), body: [],
                                  clientAddress: "127.0.0.1")
        return Self.answer(metricsRouter.resolve(request), request, reported: reported)
    }

    func post(_ path: String, _ json: String, bearer: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        return send(.post, path, json: json, headers: headers)
    }

    func get(_ path: String, bearer: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        return send(.get, path, headers: headers)
    }

    /// The token in the last mail of `kind` to `email`, read from its link's query.
    func mailedToken(_ kind: MailKind, to email: String) -> String? {
        guard let link = store.mails.last(where: { $0.kind == kind && $0.recipient == email })?.deepLink,
              let items = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems
        else { return nil }
        return items.first { $0.name == "token" }?.value
    }

    /// Signs up and confirms `email`, returning the session body of `/v1/confirm`.
    func confirmedSession(
        email: String = "ada@example.com", password: String = "correct horse"
    ) throws -> [String: Any] {
        let signUp = post("/v1/signup", #"{"email":"\#(email)","password":"\#(password)"}"#)
        guard signUp.status == .accepted, let token = mailedToken(.confirmEmail, to: email) else {
            throw HarnessError.setupFailed("signup \(signUp.status)")
        }
        let confirm = post("/v1/confirm", #"{"token":"\#(token)"}"#)
        guard confirm.status == .ok else { throw HarnessError.setupFailed("confirm \(confirm.status)") }
        return try confirm.jsonObject()
    }

    enum HarnessError: Error {
        case setupFailed(String)
    }
}
