/// How values that may hold a one-time token print themselves.
///
/// Apps log deep links, routes and outcomes (`print`, `dump`, `Logger` interpolation, crash reporters that capture
/// `String(reflecting:)`), and a token in a log is a working credential until it expires. So every printed form
/// of `AppDeepLink`, `DeepLinkRoute`, `DeepLinkParseResult`, `DeepLinkOutcome`, `NavigationState` and
/// `DeepLinkRejection` (description, debugDescription and the `Mirror` that `dump` walks) shows this marker where
/// a token, or text that may be one, would be. Equality, hashing and `Codable` still see the real values.
enum Redaction {
    static let marker = "<redacted>"

    /// `[a, b]` with each element's own (redacting) description.
    static func list(_ links: [AppDeepLink]) -> String {
        "[" + links.map(\.description).joined(separator: ", ") + "]"
    }
}
