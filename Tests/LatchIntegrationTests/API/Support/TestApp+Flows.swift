import AuthCore
import Foundation
import LatchTestSupport
import PostgresClient
import Testing

/// The steps every flow test repeats, each over real HTTP: a JSON body is built with JSONSerialization so
/// hostile strings are escaped exactly as a client would escape them.
extension TestApp {
    enum FlowError: Error { case noToken(String), unexpected(Int, String) }

    /// A JSON object body from string fields.
    static func body(_ fields: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    func post(_ path: String, fields: [String: String], headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        try post(path, Self.body(fields), headers: headers)
    }

    /// Any method, with a JSON body of `fields` when given, as the holder of `bearer` when given.
    func send(_ method: String, _ path: String, _ fields: [String: String]? = nil, bearer: String? = nil) throws
        -> HTTPTestClient.Response
    {
        let client = try client()
        defer { client.close() }
        let headers = bearer.map { [("Authorization", "Bearer \($0)")] } ?? []
        guard let fields else { return try client.send(method, path, headers: headers) }
        return try client.sendJSON(method, path, json: Self.body(fields), headers: headers)
    }

    func signUp(_ email: String, _ password: String) throws -> HTTPTestClient.Response {
        try post("/v1/signup", fields: ["email": email, "password": password])
    }

    func signIn(_ email: String, _ password: String) throws -> HTTPTestClient.Response {
        try post("/v1/signin", fields: ["email": email, "password": password])
    }

    func confirm(_ token: String) throws -> HTTPTestClient.Response {
        try post("/v1/confirm", fields: ["token": token])
    }

    func refresh(_ refreshToken: String) throws -> HTTPTestClient.Response {
        try post("/v1/token/refresh", fields: ["refresh_token": refreshToken])
    }

    func me(_ accessToken: String) throws -> HTTPTestClient.Response {
        try get("/v1/me", headers: [("Authorization", "Bearer \(accessToken)")])
    }

    func resetPassword(_ token: String, _ password: String) throws -> HTTPTestClient.Response {
        try post("/v1/password/reset", fields: ["token": token, "password": password])
    }

    /// The tokens of every mail of `kind` to `email`, oldest first, read from the outbox rows' links by
    /// DeepLinkRouting as the app would.
    func tokens(_ email: String, kind: MailKind) throws -> [String] {
        try pool.query(
            "SELECT deep_link FROM outbox WHERE recipient = $1 AND kind = $2 ORDER BY id", [email, kind.rawValue]
        ).map { row in
            guard let text = try row.decode(String?.self, column: 0), let url = URL(string: text),
                  let token = parser.parse(url).link?.token
            else { throw FlowError.noToken(email) }
            return token
        }
    }

    /// The token of the newest confirm mail to `email`, read from the outbox row's link by DeepLinkRouting.
    func confirmToken(_ email: String) throws -> String {
        guard let link = try latestLink(to: email, kind: .confirmEmail),
              case .confirmAuth(let token)? = parser.parse(link).link else { throw FlowError.noToken(email) }
        return token
    }

    /// The token of the newest reset mail to `email`, parsed as a resetPassword link.
    func resetToken(_ email: String) throws -> String {
        guard let link = try latestLink(to: email, kind: .resetPassword),
              case .resetPassword(let token)? = parser.parse(link).link else { throw FlowError.noToken(email) }
        return token
    }

    /// Sign-up, then confirm with the mailed token: the session confirm returns.
    func signUpAndConfirm(_ email: String, _ password: String) throws -> SessionJSON {
        let signUp = try signUp(email, password)
        guard signUp.status == 202 else { throw FlowError.unexpected(signUp.status, signUp.text) }
        let confirmed = try confirm(try confirmToken(email))
        guard confirmed.status == 200 else { throw FlowError.unexpected(confirmed.status, confirmed.text) }
        return try confirmed.json(SessionJSON.self)
    }

    /// A sign-in that must succeed.
    func session(_ email: String, _ password: String) throws -> SessionJSON {
        let response = try signIn(email, password)
        guard response.status == 200 else { throw FlowError.unexpected(response.status, response.text) }
        return try response.json(SessionJSON.self)
    }

    /// Runs one SQL statement on the test's own pool (arranging rows, e.g. disabling a user).
    func sql(_ statement: String, _ parameters: [any PostgresBindable] = []) throws {
        _ = try pool.query(statement, parameters)
    }

    func count(_ statement: String, _ parameters: [any PostgresBindable] = []) throws -> Int {
        try pool.query(statement, parameters).scalar(Int.self) ?? -1
    }

    /// Stops this instance but keeps the database, for a second instance sharing it.
    func stopKeepingDatabase() {
        application.stop()
        pool.close()
        try? FileManager.default.removeItem(at: mailDirectory)
    }
}
