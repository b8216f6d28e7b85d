import Foundation

/// Turns an `APIRequest` into HTTP and its answer into a response or a `LatchError`. Holds no session: the
/// bearer token is given per call by `LatchClient`, which decides when to refresh it.
struct APIConnection: Sendable {
    let baseURL: URL
    let transport: any HTTPTransport
    /// The `Accept-Language` every request carries (`AcceptLanguage`); nil: none.
    let acceptLanguage: String?

    init(baseURL: URL, transport: any HTTPTransport, preferredLanguages: [String]) {
        self.baseURL = baseURL
        self.transport = transport
        acceptLanguage = AcceptLanguage.value(for: preferredLanguages)
    }

    func send<Request: APIRequest>(_ request: Request, bearer: String? = nil)
        async throws(LatchError) -> Request.Response {
        let response: TransportResponse
        do {
            response = try await transport.send(try httpRequest(for: request, bearer: bearer))
        } catch let error as LatchError {
            throw error
        } catch {
            throw .network(String(describing: error))
        }
        guard response.isSuccess else { throw ErrorResponse.error(from: response) }
        do {
            return try Request.Response(body: response.body)
        } catch {
            throw .invalidResponse("\(Request.path): the answer does not decode (\(error))")
        }
    }

    func httpRequest<Request: APIRequest>(for request: Request, bearer: String?)
        throws(LatchError) -> TransportRequest {
        var headers = ["Accept": "application/json"]
        if let acceptLanguage { headers["Accept-Language"] = acceptLanguage }
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        var body: Data?
        if Request.sendsBody {
            headers["Content-Type"] = "application/json"
            do {
                body = try APIJSON.encoder.encode(request)
            } catch {
                throw .invalidRequest(message: "\(Request.path): the body does not encode")
            }
        }
        return TransportRequest(method: Request.method, url: url(request.resolvedPath), headers: headers, body: body)
    }

    /// The base URL with its own path prefix kept (`https://example.com/auth` + `/v1/me`).
    private func url(_ path: String) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + path) ?? baseURL
    }
}
