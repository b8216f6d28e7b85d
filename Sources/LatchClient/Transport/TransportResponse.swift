import Foundation

/// One HTTP answer: status, headers and body.
public struct TransportResponse: Hashable, Sendable {
    public var status: Int
    /// Header names lowercased (HTTP header names are case-insensitive).
    public private(set) var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.body = body
    }

    /// The value of header `name`, whatever its case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var isSuccess: Bool { (200..<300).contains(status) }
}
