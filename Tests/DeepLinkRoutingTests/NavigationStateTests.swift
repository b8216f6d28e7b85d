import DeepLinkRouting
import Foundation
import Testing

@Suite struct NavigationStateTests {
    func state(_ auth: AuthState) -> NavigationState {
        var state = NavigationState(parser: Fixtures.parser)
        if auth != .undetermined { state.authStateDetermined(signedIn: auth == .loggedIn) }
        return state
    }

    @Test func theRootFollowsTheAuthState() {
        var state = NavigationState(parser: Fixtures.parser)
        #expect(state.authState == .undetermined)
        #expect(state.root == .launching)
        state.authStateDetermined(signedIn: true)
        #expect(state.root == .home)
        state.signedOut()
        #expect(state.root == .signIn)
        #expect(self.state(.loggedOut).root == .signIn)
    }

    @Test(arguments: [
        ("myapp://confirmAuth?token=T", AppDeepLink.confirmAuth(token: "T")),
        ("https://links.example.com/resetPassword?token=T", .resetPassword(token: "T")),
        ("https://links.example.com/confirmEmailChange?token=T", .confirmEmailChange(token: "T")),
        ("https://links.example.com/signIn?token=T", .signIn(token: "T")),
        ("myapp://acceptInvite?token=T", .acceptInvite(token: "T")),
    ])
    func tokenLinksOpenWhileSignedOut(link: String, screen: AppDeepLink) {
        var state = state(.loggedOut)
        let outcome = state.open(url: Fixtures.url(link))
        #expect(outcome == .opened(DeepLinkRoute(screen)))
        #expect(state.root == .signIn)
        #expect(state.path == [screen])
        #expect(state.pendingRoute == nil)
    }

    @Test(arguments: ["myapp://confirmAuth", "myapp://confirmAuth?token=", "myapp://resetPassword?token=a&token=b"])
    func malformedTokenLinksFallBackToTheRoot(link: String) {
        var state = state(.loggedOut)
        state.path = [.resetPassword(token: "old")]
        let outcome = state.open(url: Fixtures.url(link))
        #expect(outcome.isRejected)
        #expect(state.path == [])
        #expect(state.root == .signIn)
    }

    @Test(arguments: ["myapp://home/profile", "https://links.example.com/home/profile"])
    func aPathLinkPicksTheRootAndPushesTheRest(link: String) {
        var state = state(.loggedIn)
        #expect(state.open(url: Fixtures.url(link)) == .opened(DeepLinkRoute(.profile)))
        #expect(state.root == .home)
        #expect(state.path == [.profile])
    }

    @Test func aNestedLinkBuildsTheHierarchySoBackWorks() {
        var state = state(.loggedIn)
        state.path = [.profile]
        state.open(url: Fixtures.url("myapp://item/42"))
        #expect(state.path == [.itemList, .itemDetail(id: "42")])
        state.path.removeLast()  // what NavigationStack does on Back
        #expect(state.path == [.itemList])
    }

    @Test func anAuthLinkWhileSignedOutShowsSignInAndResumesAfterIt() {
        var state = state(.loggedOut)
        let route = DeepLinkRoute(.itemDetail(id: "9"))
        #expect(state.open(url: Fixtures.url("https://links.example.com/home/item/9")) == .deferred(route))
        #expect(state.root == .signIn)
        #expect(state.path == [])
        #expect(state.pendingRoute == route)
        state.signedIn()
        #expect(state.root == .home)
        #expect(state.path == [.itemList, .itemDetail(id: "9")])
        #expect(state.pendingRoute == nil)
    }

    @Test func theResumedLinkSurvivesATokenFlowOnTheWay() {
        var state = state(.loggedOut)
        state.open(url: Fixtures.url("myapp://home/profile"))
        state.open(url: Fixtures.url("myapp://resetPassword?token=T"))
        #expect(state.path == [.resetPassword(token: "T")])
        state.signedIn()
        #expect(state.path == [.profile])
    }

    @Test func aLinkAtLaunchWaitsForTheAuthState() {
        var signedIn = state(.undetermined)
        #expect(signedIn.open(url: Fixtures.url("myapp://home/profile")).isDeferred)
        #expect(signedIn.root == .launching)
        signedIn.authStateDetermined(signedIn: true)
        #expect(signedIn.path == [.profile])

        var signedOut = state(.undetermined)
        signedOut.open(url: Fixtures.url("myapp://home/profile"))
        signedOut.authStateDetermined(signedIn: false)
        #expect(signedOut.root == .signIn)
        #expect(signedOut.path == [])
        signedOut.signedIn()
        #expect(signedOut.path == [.profile])

        var confirming = state(.undetermined)
        confirming.open(url: Fixtures.url("myapp://confirmAuth?token=T"))
        confirming.authStateDetermined(signedIn: false)
        #expect(confirming.path == [.confirmAuth(token: "T")])
        #expect(confirming.pendingRoute == nil)
    }

    @Test func tokenLinksWhileSignedInOpenOnHome() {
        var state = state(.loggedIn)
        state.open(url: Fixtures.url("myapp://confirmAuth?token=T"))
        #expect(state.root == .home)
        #expect(state.path == [.confirmAuth(token: "T")])
        state.open(url: Fixtures.url("myapp://confirmEmailChange?token=T"))
        #expect(state.root == .home)
        #expect(state.path == [.confirmEmailChange(token: "T")])
    }

    @Test func signOutEmptiesThePathAndForgetsIt() {
        var state = state(.loggedIn)
        state.open(url: Fixtures.url("myapp://home/items/item/3"))
        state.signedOut()
        #expect(state.root == .signIn)
        #expect(state.path == [])
        state.signedIn()
        #expect(state.path == [], "the previous user's stack must not come back")
    }

    @Test func signOutDropsALinkWaitingForSignIn() {
        var state = state(.loggedOut)
        state.open(url: Fixtures.url("myapp://home/profile"))
        state.signedOut()
        state.signedIn()
        #expect(state.path == [])
    }

    @Test(arguments: ["otherapp://home/profile", "https://evil.example.com/home/profile", "myapp://home/secret",
                      "myapp://home/profile?debug=1", "javascript:alert(1)"])
    func unknownLinksFallBackToTheRootAndAreReported(link: String) throws {
        var state = state(.loggedIn)
        state.path = [.itemList, .itemDetail(id: "1")]
        let outcome = state.open(url: try #require(URL(string: link)))
        #expect(outcome.isRejected)
        #expect(state.root == .home)
        #expect(state.path == [])
    }

    @Test func aSignUpWaitingForItsMailIsShownAndEndsAtSignIn() {
        var state = state(.loggedOut)
        state.awaitingConfirmation(email: "ada@example.com")
        #expect(state.root == .awaitingConfirmation(email: "ada@example.com"))
        state.open(url: Fixtures.url("myapp://confirmAuth?token=T"))
        #expect(state.path == [.confirmAuth(token: "T")], "Back returns to the waiting screen")
        state.signedIn()
        #expect(state.root == .home)
        #expect(state.signUpEmail == nil)

        var cancelled = self.state(.loggedOut)
        cancelled.awaitingConfirmation(email: "ada@example.com")
        cancelled.cancelSignUp()
        #expect(cancelled.root == .signIn)
    }

    @Test func aSignedInUserIsNeverSentToTheWaitingScreen() {
        var state = state(.loggedIn)
        state.awaitingConfirmation(email: "ada@example.com")
        #expect(state.root == .home)
        #expect(state.signUpEmail == nil)
    }
}

extension DeepLinkOutcome {
    var isRejected: Bool { if case .rejected = self { true } else { false } }
    var isDeferred: Bool { if case .deferred = self { true } else { false } }
}
