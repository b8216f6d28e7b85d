/// One `name=value` pair from a query string, percent-decoded (`+` read as a space).
/// A key without `=` has an empty value.
public struct HTTPQueryItem: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Splits a raw query string (without `?`) into items, keeping repeated keys in order.
    public static func parse(_ query: some StringProtocol) -> [HTTPQueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else {
                return HTTPQueryItem(name: PercentDecoding.decode(pair, plusAsSpace: true), value: "")
            }
            return HTTPQueryItem(
                name: PercentDecoding.decode(pair[..<equals], plusAsSpace: true),
                value: PercentDecoding.decode(pair[pair.index(after: equals)...], plusAsSpace: true)
            )
        }
    }
}
