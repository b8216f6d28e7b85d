/// The body of `/.well-known/assetlinks.json` (Digital Asset Links): one statement letting the Android app handle
/// every URL of this host and use its passkeys and passwords (Credential Manager's `get_login_creds`), or `[]`
/// without an Android package.
struct AssetLinks: Encodable, Equatable {
    struct Statement: Encodable, Equatable {
        let relation: [String]
        let target: Target
    }

    struct Target: Encodable, Equatable {
        let namespace: String
        let packageName: String
        let sha256CertFingerprints: [String]

        enum CodingKeys: String, CodingKey {
            case namespace
            case packageName = "package_name"
            case sha256CertFingerprints = "sha256_cert_fingerprints"
        }
    }

    static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    static let getLoginCredentials = "delegate_permission/common.get_login_creds"

    let statements: [Statement]

    init(package: String?, fingerprints: [String]) {
        guard let package, !package.isEmpty else {
            statements = []
            return
        }
        let target = Target(namespace: "android_app", packageName: package, sha256CertFingerprints: fingerprints)
        statements = [Statement(relation: [Self.handleAllURLs, Self.getLoginCredentials], target: target)]
    }

    /// The file is a bare JSON array of statements.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(statements)
    }
}
