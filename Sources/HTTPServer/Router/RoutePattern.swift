/// A route path such as `/v1/users/:id`: literal segments and `:name` captures.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    /// Whether the pattern has no captures, so it can live in the exact-match table.
    var isStatic: Bool {
        !segments.contains { if case .parameter = $0 { true } else { false } }
    }

    /// The canonical key of a static pattern: `/a/b` (empty segments dropped).
    var staticKey: String {
        Self.key(segments.map { if case .literal(let text) = $0 { Substring(text) } else { "" } })
    }

    init(_ path: String) {
        segments = path.split(separator: "/").map { part in
            part.first == ":" ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
    }

    /// Matches raw (still percent-encoded) request segments; captures are decoded.
    func match(_ requestSegments: [Substring]) -> RouteParameters? {
        guard requestSegments.count == segments.count else { return nil }
        var parameters = RouteParameters()
        for (segment, actual) in zip(segments, requestSegments) {
            switch segment {
            case .literal(let text):
                guard actual == text else { return nil }
            case .parameter(let name):
                parameters.set(name, PercentDecoding.decode(actual, plusAsSpace: false))
            }
        }
        return parameters
    }

    static func key(_ segments: [Substring]) -> String {
        "/" + segments.joined(separator: "/")
    }
}
