import Foundation

/// What survives a relaunch: the stack, a link waiting for sign-in, and a sign-up waiting for its mail.
///
/// It holds no secrets: screens that carry a token (and everything above them) are dropped, routes that carry one
/// are dropped, and there is no place for a password. The sign-up email is kept (it is shown on screen anyway)
/// so "check your mail" survives the app being killed while the user opens their mail app.
public struct NavigationSnapshot: Hashable, Sendable {
    /// Bumped when the format changes; other versions are not restored.
    public static let currentVersion = 1

    public let version: Int
    /// The stack, cut before the first token-carrying screen.
    public let path: [AppDeepLink]
    /// A link that was waiting for sign-in (or its second factor), unless it carries a token. A sign-in waiting for
    /// its second factor does not survive a relaunch (its ticket lives in memory only): the link then waits for the
    /// next sign-in.
    public let pendingRoute: DeepLinkRoute?
    /// The address of a sign-up waiting for email confirmation.
    public let signUpEmail: String?

    /// Drops every secret on the way in, so no snapshot can hold one, however it was made.
    public init(path: [AppDeepLink], pendingRoute: DeepLinkRoute?, signUpEmail: String?) {
        version = Self.currentVersion
        self.path = Array(path.prefix { !$0.carriesSecret })
        self.pendingRoute = pendingRoute?.carriesSecret == true ? nil : pendingRoute
        self.signUpEmail = signUpEmail
    }

    /// Stable JSON (sorted keys).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads `encoded()` output; throws for other versions and for anything that is not a snapshot.
    public init(data: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: data)
    }
}

extension NavigationSnapshot: Codable {
    private enum CodingKeys: String, CodingKey { case version, path, pendingRoute, signUpEmail }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "version \(version)")
        }
        // Through the sanitizing initializer: edited or old data cannot smuggle a token back in.
        self.init(
            path: try container.decode([AppDeepLink].self, forKey: .path),
            pendingRoute: try container.decodeIfPresent(DeepLinkRoute.self, forKey: .pendingRoute),
            signUpEmail: try container.decodeIfPresent(String.self, forKey: .signUpEmail)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(pendingRoute, forKey: .pendingRoute)
        try container.encodeIfPresent(signUpEmail, forKey: .signUpEmail)
    }
}
