import DeepLinkRouting
import Foundation

/// The configurations the tests use: production-like and development (http with a port).
enum Fixtures {
    static func url(_ string: String) -> URL {
        guard let url = URL(string: string) else { preconditionFailure("bad fixture URL \(string)") }
        return url
    }

    static let production = DeepLinkConfiguration(
        appScheme: "myapp",
        linkBase: url("https://links.example.com"),
        additionalHosts: ["links.old-example.com", "staging.example.com:8443"]
    )

    static let development = DeepLinkConfiguration(appScheme: "myapp", linkBase: url("http://127.0.0.1:8080"))

    static let parser = DeepLinkParser(configuration: production)
    static let printer = DeepLinkPrinter(configuration: production)

    /// A real-looking token: 43 base64url characters, as LatchCrypto makes them.
    static let token = "q3Zx-9_aB0cD1eF2gH3iJ4kL5mN6oP7qR8sT9uV0wXy"
}
