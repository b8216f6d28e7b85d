import DeepLinkRouting
import Foundation
import LatchClient
import Testing

/// An app's side of the in-process latchd: a `LatchClient` over real HTTP, and the app's own link parser.
extension TestApp {
    static let passphrase = "correct horse battery staple 42"

    var baseURL: URL {
        get throws { try #require(URL(string: "http://127.0.0.1:\(port)")) }
    }

    /// The parser the app builds from its own configuration (the same scheme and link base as the server's).
    static var appParser: DeepLinkParser {
        get throws {
            DeepLinkParser(configuration: DeepLinkConfiguration(
                appScheme: "myapp", linkBase: try #require(URL(string: linkBase))))
        }
    }

    /// A client of the in-process latchd; `preferredLanguages` none by default, so the server's choice of language
    /// does not depend on the machine running the tests.
    func latchClient(
        store: any SessionStore = InMemorySessionStore(), transport: any HTTPTransport = CountingTransport(),
        preferredLanguages: [String] = [], now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> LatchClient {
        LatchClient(baseURL: try baseURL, store: store, transport: transport, preferredLanguages: preferredLanguages,
                    now: now)
    }

    /// Signs `email` up through `client` and confirms with the token of the mail in the outbox, through the
    /// client's deep-link handling: the client is then signed in.
    @discardableResult
    func signUpAndConfirm(_ email: String, with client: LatchClient) async throws -> User {
        try await client.signUp(email: email, password: Self.passphrase)
        let link = try #require(try latestLink(to: email, kind: .confirmEmail))
        let route = try #require(try Self.appParser.parse(link).route)
        guard case .signedIn(let user) = try await client.handle(route) else {
            throw FlowError.noToken(email)
        }
        return user
    }

}
