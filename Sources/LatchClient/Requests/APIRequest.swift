/// One endpoint of the API: method, path, JSON body (the request's own fields, snake_case through its
/// `CodingKeys`) and the answer it decodes. Adding a call to the client is one of these and a public method on
/// `LatchClient` that sends it, with `api.send` (no session) or `authorized` (bearer, refreshed as needed).
protocol APIRequest: Encodable, Sendable {
    associatedtype Response: APIResponse
    /// `POST` unless said otherwise; a `GET` sends no body.
    static var method: String { get }
    /// Under the base URL, e.g. `/v1/signin`: the route as the server registers it, for messages.
    static var path: String { get }
    /// This request's path: `path` unless the route has a parameter (`/v1/sessions/{id}`).
    var resolvedPath: String { get }
    /// Whether the request's fields go as a JSON body: every method but `GET`, unless said otherwise.
    static var sendsBody: Bool { get }
}

extension APIRequest {
    static var method: String { "POST" }
    var resolvedPath: String { Self.path }
    static var sendsBody: Bool { method != "GET" }
}
