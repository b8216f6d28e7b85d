import Foundation

/// The one mapping between routes and URL parts, used by both the printer and the parser so they cannot drift.
///
/// Path: `home` (the root) followed by screens: `profile`, `items`, `item/<id>`; or a token link alone:
/// `confirmAuth`, `resetPassword`, `confirmEmailChange`, `signIn`, `acceptInvite`. Every screen name has a fixed
/// number of parameter segments, so a walk is never ambiguous (an id spelled `profile` is still an id). Names match
/// case-insensitively because some platforms lowercase the host of a custom-scheme URL, which is where the first
/// segment sits.
/// Tokens travel in the `token` query parameter: a fragment never reaches the server's landing page.
enum LinkGrammar {
    static let tokenParameter = "token"
    static let idParameter = "id"

    /// The words a link is made of besides its values: destination and parameter names. Rejections may print them
    /// (they are no secret), unlike text copied from a URL.
    static let vocabulary: Set<String> = Set(Name.allCases.map(\.rawValue) + [tokenParameter, idParameter])

    private enum Name: String, CaseIterable {
        case home, profile, items, item, confirmAuth, resetPassword, confirmEmailChange, signIn, acceptInvite

        init?(segment: String) {
            guard let name = Name.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(segment) == .orderedSame })
            else { return nil }
            self = name
        }
    }

    /// Decoded path segments and query items that print `route`.
    static func parts(of route: DeepLinkRoute) -> (segments: [String], query: [(name: String, value: String)]) {
        if let only = route.path.first, route.path.count == 1, let token = only.token {
            return ([tokenName(of: only).rawValue], [(tokenParameter, token)])
        }
        var segments = [Name.home.rawValue]
        for screen in route.path {
            switch screen {
            case .profile: segments.append(Name.profile.rawValue)
            case .itemList: segments.append(Name.items.rawValue)
            case .itemDetail(let id): segments += [Name.item.rawValue, id]
            // DeepLinkRoute never holds these inside a walk.
            case .home, .confirmAuth, .resetPassword, .confirmEmailChange, .signIn, .acceptInvite: continue
            }
        }
        return (segments, [])
    }

    /// The route named by decoded path segments and query items (duplicates already refused).
    static func route(
        segments: [String], query: [(name: String, value: String)]
    ) throws(DeepLinkRejection) -> DeepLinkRoute {
        guard !segments.isEmpty else { throw .missingDestination }
        // Unknown parameters first: they say more about a mangled link than the missing token they may have replaced.
        for item in query where item.name != tokenParameter {
            throw .unexpectedParameter(DeepLinkRejection.clipped(item.name))
        }
        let token = query.first { $0.name == tokenParameter }?.value
        var walk: [AppDeepLink] = []
        var index = 0
        while index < segments.count {
            let segment = segments[index]
            guard let name = Name(segment: segment) else { throw .unknownDestination(DeepLinkRejection.clipped(segment)) }
            index += 1
            switch name {
            case .home:
                guard walk.isEmpty else { throw .misplacedDestination(name.rawValue) }
                walk.append(.home)
            case .profile: walk.append(.profile)
            case .items: walk.append(.itemList)
            case .item:
                guard index < segments.count, !segments[index].isEmpty else { throw .missingParameter(idParameter) }
                walk.append(.itemDetail(id: segments[index]))
                index += 1
            case .confirmAuth, .resetPassword, .confirmEmailChange, .signIn, .acceptInvite:
                guard let token, !token.isEmpty else { throw .missingParameter(tokenParameter) }
                let link: AppDeepLink = switch name {
                case .confirmAuth: .confirmAuth(token: token)
                case .resetPassword: .resetPassword(token: token)
                case .signIn: .signIn(token: token)
                case .acceptInvite: .acceptInvite(token: token)
                default: .confirmEmailChange(token: token)
                }
                walk.append(link)
            }
        }
        if token != nil, !walk.contains(where: { $0.carriesSecret }) { throw .unexpectedParameter(tokenParameter) }
        guard let route = DeepLinkRoute(walk: walk) else {
            // `home` can only fail above, so the walk mixes a token link with other screens.
            let offender = walk.first { $0.carriesSecret }.map(tokenName) ?? .home
            throw .misplacedDestination(offender.rawValue)
        }
        return route
    }

    private static func tokenName(of link: AppDeepLink) -> Name {
        switch link {
        case .confirmAuth: .confirmAuth
        case .confirmEmailChange: .confirmEmailChange
        case .signIn: .signIn
        case .acceptInvite: .acceptInvite
        default: .resetPassword
        }
    }
}
