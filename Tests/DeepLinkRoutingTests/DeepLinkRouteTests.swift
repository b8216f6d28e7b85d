import DeepLinkRouting
import Foundation
import Testing

@Suite struct DeepLinkRouteTests {
    @Test func everyLinkKnowsWhetherItNeedsAuth() {
        #expect(AppDeepLink.home.requiresAuth)
        #expect(AppDeepLink.profile.requiresAuth)
        #expect(AppDeepLink.itemList.requiresAuth)
        #expect(AppDeepLink.itemDetail(id: "1").requiresAuth)
        #expect(!AppDeepLink.confirmAuth(token: "T").requiresAuth)
        #expect(!AppDeepLink.resetPassword(token: "T").requiresAuth)
        #expect(!AppDeepLink.confirmEmailChange(token: "T").requiresAuth)
        #expect(!AppDeepLink.signIn(token: "T").requiresAuth, "it is how a signed-out user signs in")
        #expect(DeepLinkRoute(.home).requiresAuth)
        #expect(!DeepLinkRoute(.confirmAuth(token: "T")).requiresAuth)
        #expect(!DeepLinkRoute(.signIn(token: "T")).requiresAuth)
    }

    @Test func walksInsertMissingParentsOnly() {
        #expect(DeepLinkRoute(walk: [.home, .itemDetail(id: "1")])?.path == [.itemList, .itemDetail(id: "1")])
        #expect(DeepLinkRoute(walk: [.itemList, .itemDetail(id: "1")])?.path == [.itemList, .itemDetail(id: "1")])
        #expect(DeepLinkRoute(walk: [])?.link == .home)
    }

    @Test func tokenLinksStandAlone() {
        #expect(DeepLinkRoute(walk: [.confirmAuth(token: "T")]) != nil)
        #expect(DeepLinkRoute(walk: [.home, .confirmAuth(token: "T")]) == nil)
        #expect(DeepLinkRoute(walk: [.profile, .resetPassword(token: "T")]) == nil)
        #expect(DeepLinkRoute(walk: [.signIn(token: "T")])?.path == [.signIn(token: "T")])
        #expect(DeepLinkRoute(walk: [.home, .signIn(token: "T")]) == nil)
        #expect(AppDeepLink.signIn(token: "T").carriesSecret && AppDeepLink.signIn(token: "T").token == "T")
        #expect(DeepLinkRoute(walk: [.profile, .home]) == nil)
    }

    @Test func pathsSurviveACodableRoundTripWithEquality() throws {
        // The reason for a typed array over NavigationPath: equality survives persistence.
        let route = try #require(DeepLinkRoute(walk: [.profile, .itemDetail(id: "x/y")]))
        let decoded = try JSONDecoder().decode(DeepLinkRoute.self, from: try JSONEncoder().encode(route))
        #expect(decoded == route)
        let path = try JSONDecoder().decode([AppDeepLink].self, from: try JSONEncoder().encode(route.path))
        #expect(path == route.path)
    }
}
