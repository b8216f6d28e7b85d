// swift-tools-version:6.0
// Latch: an authentication backend with deep-link emails. Each module has one job, and dependencies point one
// way; ARCHITECTURE.md ("Modules and their one job", "What depends on what") draws the graph from the imports.
import PackageDescription

let package = Package(
    name: "Latch",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "DeepLinkRouting", targets: ["DeepLinkRouting"]),
        .library(name: "LatchClient", targets: ["LatchClient"]),
        .executable(name: "latchd", targets: ["latchd"]),
        .executable(name: "latchctl", targets: ["latchctl"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Shared with the mobile app: Foundation and Observation only.
        .target(name: "DeepLinkRouting"),
        // The app's client of the HTTP API: Foundation (FoundationNetworking on Linux) and DeepLinkRouting only.
        .target(name: "LatchClient", dependencies: ["DeepLinkRouting"]),

        // HTML escaping for the mails and the landing pages.
        .target(name: "HTMLEscaping"),

        // The service, pure Swift.
        .target(name: "AuthCore", dependencies: ["DeepLinkRouting"], resources: [.copy("Policy/common-passwords.txt")]),
        .target(name: "LatchCrypto", dependencies: ["COpenSSL", "CArgon2", "AuthCore"]),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        .target(name: "LatchStore", dependencies: ["AuthCore", "PostgresClient"]),
        .target(name: "Mailer", dependencies: ["CCurl", "AuthCore", "HTMLEscaping"]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "LatchHTTP", dependencies: ["HTTPServer", "AuthCore", "DeepLinkRouting", "HTMLEscaping"]),
        .target(name: "LatchConfig", dependencies: ["AuthCore", "DeepLinkRouting"]),

        // The daemon's assembly (config -> pool, store, service, routes, server, outbox worker), a library so that
        // integration tests run exactly what latchd runs.
        .target(
            name: "LatchApp",
            dependencies: ["LatchConfig", "LatchHTTP", "LatchStore", "LatchCrypto", "Mailer", "PostgresClient", "HTTPServer"]
        ),
        .executableTarget(name: "latchd", dependencies: ["LatchApp", "LatchConfig"]),
        .executableTarget(
            name: "latchctl",
            dependencies: ["LatchApp", "LatchConfig", "AuthCore", "LatchStore", "LatchCrypto", "PostgresClient"]
        ),

        // `make bench`: micro benchmarks of the hot paths and the report of the load run (bench/, scripts/bench).
        .executableTarget(name: "latch-bench", dependencies: ["LatchCrypto", "AuthCore", "LatchHTTP", "PostgresClient"]),

        // Test helpers: throwaway databases and clusters, subprocesses, an HTTP client.
        .target(name: "LatchTestSupport", dependencies: ["PostgresClient"], path: "Tests/LatchTestSupport"),
        // Test doubles of AuthCore's ports (one in-memory store, clock, hasher, token generator, composer), shared
        // by every target that drives AuthService without PostgreSQL.
        .target(name: "AuthCoreTesting", dependencies: ["AuthCore"], path: "Tests/AuthCoreTesting"),
        // The store contract: every store port's promises, written once against `any AuthStore` and run on the
        // in-memory fake (AuthCoreTests) and on PostgreSQL (LatchStoreTests), so the fake cannot drift from the
        // real store unnoticed. It imports Testing, so only test targets may depend on it.
        .target(name: "StoreContract", dependencies: ["AuthCore"], path: "Tests/StoreContract"),

        .testTarget(name: "DeepLinkRoutingTests", dependencies: ["DeepLinkRouting"]),
        .testTarget(name: "LatchClientTests", dependencies: ["LatchClient", "DeepLinkRouting"]),
        .testTarget(name: "HTMLEscapingTests", dependencies: ["HTMLEscaping"]),
        .testTarget(name: "AuthCoreTests", dependencies: ["AuthCore", "AuthCoreTesting", "StoreContract"]),
        .testTarget(name: "LatchCryptoTests", dependencies: ["LatchCrypto", "AuthCoreTesting"]),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "LatchTestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "LatchTestSupport"]),
        .testTarget(name: "MailerTests", dependencies: ["Mailer", "AuthCoreTesting"]),
        .testTarget(
            name: "LatchStoreTests", dependencies: ["LatchStore", "LatchCrypto", "LatchTestSupport", "StoreContract"]
        ),
        .testTarget(name: "LatchHTTPTests", dependencies: ["LatchHTTP", "HTTPServer", "LatchTestSupport", "AuthCoreTesting"]),
        .testTarget(name: "LatchConfigTests", dependencies: ["LatchConfig", "AuthCore"]),
        .testTarget(
            name: "LatchIntegrationTests",
            dependencies: [
                "LatchApp", "LatchTestSupport", "PostgresClient", "DeepLinkRouting", "Mailer", "AuthCore", "LatchClient",
                "LatchCrypto",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
