import Foundation

/// One HTTP request as the client builds it. Its printed form leaves out the headers and the body, which hold
/// the bearer token, passwords and one-time tokens.
public struct TransportRequest: Hashable, Sendable {
    public var method: String
    public var url: URL
    /// Header names as the client writes them (`Content-Type`, `Authorization`).
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

extension TransportRequest: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "\(method) \(url.path)" }
    public var debugDescription: String { description }
}
