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
        .systemLibrary(name: "CCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),

        // libcurl's easy handle for the modules that transfer with it: options, errors, the captured answer.
        .target(name: "CurlSupport", dependencies: ["CCurl"]),

        // Shared with the mobile app: Foundation and Observation only.
        .target(name: "DeepLinkRouting"),
        // The app's client of the HTTP API: Foundation (FoundationNetworking on Linux) and DeepLinkRouting only.
        .target(name: "LatchClient", dependencies: ["DeepLinkRouting"]),

        // HTML escaping for the mails and the landing pages.
        .target(name: "HTMLEscaping"),

        // The service, pure Swift.
        .target(name: "AuthCore", dependencies: ["DeepLinkRouting"], resources: [.copy("Policy/common-passwords.txt")]),
        .target(name: "LatchCrypto", dependencies: ["COpenSSL", "CArgon2", "AuthCore"]),
        // AuthCore's PasskeyVerifier: strict CBOR (libcbor), COSE keys and signatures (OpenSSL), WebAuthn's checks.
        .target(name: "WebAuthn", dependencies: ["CCBOR", "COpenSSL", "LatchCrypto", "AuthCore"]),
        // AuthCore's IdentityTokenVerifier and IdentityProviderTokens: providers' id_tokens checked with OpenSSL
        // against their JWKS (fetched with libcurl), Apple's token endpoints.
        .target(
            name: "IdentityProviders", dependencies: ["CCurl", "CurlSupport", "COpenSSL", "LatchCrypto", "AuthCore"]
        ),
        .target(name: "PostgresClient", dependencies: ["CLibPQ"]),
        .target(name: "LatchStore", dependencies: ["AuthCore", "PostgresClient"]),
        .target(
            name: "Mailer", dependencies: ["CCurl", "CurlSupport", "AuthCore", "HTMLEscaping"],
            resources: [.copy("Templates")]
        ),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        // Webhook deliveries: Standard Webhooks signatures, the retry schedule, the address policy, the POST.
        .target(name: "Webhooks", dependencies: ["CCurl", "CurlSupport", "LatchCrypto", "AuthCore"]),
        .target(name: "LatchHTTP", dependencies: ["HTTPServer", "AuthCore", "DeepLinkRouting", "HTMLEscaping"]),
        .target(name: "LatchConfig", dependencies: ["AuthCore", "DeepLinkRouting"]),

        // The daemon's assembly (config -> pool, store, service, routes, server, outbox worker), a library so that
        // integration tests run exactly what latchd runs.
        .target(
            name: "LatchApp",
            dependencies: [
                "LatchConfig", "LatchHTTP", "LatchStore", "LatchCrypto", "WebAuthn", "IdentityProviders", "Mailer",
                "PostgresClient", "HTTPServer", "Webhooks",
            ]
        ),
        .executableTarget(name: "latchd", dependencies: ["LatchApp", "LatchConfig"]),
        .executableTarget(
            name: "latchctl",
            dependencies: [
                "LatchApp", "LatchConfig", "AuthCore", "LatchStore", "LatchCrypto", "PostgresClient", "Mailer", "Webhooks",
            ]
        ),

        // `make bench`: micro benchmarks of the hot paths and the report of the load run (bench/, scripts/bench).
        .executableTarget(name: "latch-bench", dependencies: ["LatchCrypto", "AuthCore", "LatchHTTP", "PostgresClient"]),

        // Pure test helpers, each written once: the toolchain only (Foundation, Dispatch, Synchronization), so any
        // test target may use them, LatchClientTests too.
        .target(name: "TestKit", path: "Tests/TestKit"),
        // Test helpers that need PostgreSQL, processes or sockets: throwaway databases and clusters, subprocesses, an
        // HTTP client. The pure ones are in TestKit.
        .target(name: "LatchTestSupport", dependencies: ["PostgresClient", "TestKit"], path: "Tests/LatchTestSupport"),
        // Test doubles of AuthCore's ports (one in-memory store, clock, hasher, token generator, composer), shared
        // by every target that drives AuthService without PostgreSQL.
        .target(name: "AuthCoreTesting", dependencies: ["AuthCore"], path: "Tests/AuthCoreTesting"),
        // The store contract: every store port's promises, written once against `any AuthStore` and run on the
        // in-memory fake (AuthCoreTests) and on PostgreSQL (LatchStoreTests), so the fake cannot drift from the
        // real store unnoticed. It imports Testing, so only test targets may depend on it.
        .target(name: "StoreContract", dependencies: ["AuthCore"], path: "Tests/StoreContract"),

        .testTarget(name: "DeepLinkRoutingTests", dependencies: ["DeepLinkRouting", "TestKit"]),
        .testTarget(name: "LatchClientTests", dependencies: ["LatchClient", "DeepLinkRouting", "TestKit"]),
        .testTarget(name: "HTMLEscapingTests", dependencies: ["HTMLEscaping"]),
        .testTarget(name: "TestKitTests", dependencies: ["TestKit"]),
        .testTarget(name: "CurlSupportTests", dependencies: ["CurlSupport", "CCurl", "HTTPServer", "TestKit"]),
        .testTarget(name: "AuthCoreTests", dependencies: ["AuthCore", "AuthCoreTesting", "StoreContract"]),
        .testTarget(name: "LatchCryptoTests", dependencies: ["LatchCrypto", "AuthCoreTesting"]),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "AuthCore", "LatchCrypto", "COpenSSL"]),
        .testTarget(
            name: "IdentityProvidersTests",
            dependencies: ["IdentityProviders", "HTTPServer", "LatchCrypto", "AuthCore", "COpenSSL", "TestKit"]
        ),
        .testTarget(name: "PostgresClientTests", dependencies: ["PostgresClient", "LatchTestSupport", "TestKit"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "LatchTestSupport", "TestKit"]),
        .testTarget(name: "MailerTests", dependencies: ["Mailer", "AuthCoreTesting", "TestKit"]),
        .testTarget(
            name: "LatchStoreTests",
            dependencies: ["LatchStore", "LatchCrypto", "LatchTestSupport", "StoreContract", "TestKit"]
        ),
        .testTarget(
            name: "LatchHTTPTests",
            dependencies: ["LatchHTTP", "HTTPServer", "LatchTestSupport", "AuthCoreTesting", "TestKit"]
        ),
        .testTarget(
            name: "WebhooksTests", dependencies: ["Webhooks", "HTTPServer", "AuthCore", "LatchTestSupport", "TestKit"]
        ),
        .testTarget(name: "LatchConfigTests", dependencies: ["LatchConfig", "AuthCore"]),
        .testTarget(
            name: "LatchIntegrationTests",
            dependencies: [
                "LatchApp", "LatchTestSupport", "PostgresClient", "DeepLinkRouting", "Mailer", "AuthCore", "LatchClient",
                "LatchCrypto", "TestKit", "LatchStore", "Webhooks", "HTTPServer",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
