import AuthCore
import HTTPServer

/// What every route family shares: the service, the client resolver, and the one wrapper that turns a route body
/// into a handler (error mapping, security headers).
struct RouteContext: Sendable {
    let auth: AuthService
    let clients: ClientInfoResolver
    let errorReporter: LatchAPI.ErrorReporter?

    var bearer: BearerAuthenticator { BearerAuthenticator(auth: auth) }

    /// Wraps `body`: any thrown error goes through `APIErrorMapper` (unexpected ones are also reported), and every
    /// answer, error or not, carries `Cache-Control: no-store` (tokens must never sit in a cache) and
    /// `X-Content-Type-Options: nosniff`.
    func handler(
        route: String, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) -> HTTPHandler {
        let reporter = errorReporter
        return { request in
            var response: HTTPResponse
            do {
                response = try body(request)
            } catch {
                let description = APIErrorMapper.describe(error)
                if !description.isExpected { reporter?(route, error) }
                response = APIErrorMapper.response(for: description)
            }
            Self.addSecurityHeaders(&response)
            return response
        }
    }

    static func addSecurityHeaders(_ response: inout HTTPResponse) {
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
    }
}
