/// The values a route's `:name` segments matched, percent-decoded.
public struct RouteParameters: Sendable, Equatable {
    private var values: [(name: String, value: String)] = []

    public init() {}

    /// The value bound to `:name`, or nil.
    public subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// Number of bound parameters.
    public var count: Int { values.count }

    mutating func set(_ name: String, _ value: String) {
        values.append((name, value))
    }

    public static func == (lhs: RouteParameters, rhs: RouteParameters) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.name == $1.name && $0.value == $1.value }
    }
}
