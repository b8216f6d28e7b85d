import Foundation

/// A complete HTTP request as handlers see it: headers and the whole body, already read.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, without the query string (e.g. `/v1/users/a b`).
    public var path: String
    /// The raw query string after `?`, not decoded; empty when there is none.
    /// It may hold tokens: never log it.
    public var query: String
    /// The decoded query items, repeated keys kept in order.
    public var queryItems: [HTTPQueryItem]
    /// Request headers, case-insensitive lookup.
    public var headers: HTTPHeaders
    /// The request body (at most the server's `maxBodyBytes`).
    public var body: [UInt8]
    /// The peer's IP address as text (`127.0.0.1`, `::1`); empty if unknown.
    public var clientAddress: String
    /// Values of the matched route's `:name` segments; filled in by the router.
    public var parameters: RouteParameters

    /// The path as sent (still percent-encoded), which the router splits into segments
    /// before decoding so that an encoded `/` cannot fake a segment boundary.
    let rawPath: Substring

    /// Builds a request from a request target such as `/users/42?tab=a`.
    /// The server uses this; it is public so that handlers can be tested without a socket.
    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        clientAddress: String = ""
    ) {
        let questionMark = target.firstIndex(of: "?")
        let rawPath = target[..<(questionMark ?? target.endIndex)]
        let query = questionMark.map { target[target.index(after: $0)...] } ?? ""
        self.method = method
        self.rawPath = rawPath
        self.path = PercentDecoding.decode(rawPath, plusAsSpace: false)
        self.query = String(query)
        self.queryItems = HTTPQueryItem.parse(query)
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        self.parameters = RouteParameters()
    }

    /// The body as `Data`.
    public var bodyData: Data { Data(body) }

    /// The first decoded value of query item `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Every decoded value of query item `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }
}
