/// What the two well-known association files claim (openapi.yaml): which apps may open this host's links.
///
/// Empty values are allowed: the files are then still valid JSON, claiming no app.
public struct WellKnownConfiguration: Hashable, Sendable {
    /// Apple app IDs, `TEAMID.bundle.id`, for `/.well-known/apple-app-site-association`.
    public var appleAppIDs: [String]
    /// The Android application ID for `/.well-known/assetlinks.json`; nil claims no Android app.
    public var androidPackage: String?
    /// SHA-256 fingerprints of the Android signing certificates (`AB:CD:…`, as `keytool` prints them).
    public var androidCertFingerprints: [String]

    public init(appleAppIDs: [String] = [], androidPackage: String? = nil, androidCertFingerprints: [String] = []) {
        self.appleAppIDs = appleAppIDs
        self.androidPackage = androidPackage
        self.androidCertFingerprints = androidCertFingerprints
    }
}
