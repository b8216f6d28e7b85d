import DeepLinkRouting
import Foundation
import Testing

/// NavigationState while a sign-in waits for its second factor: a state of its own, not signed in.
@Suite struct SecondFactorNavigationTests {
    func signedOut() -> NavigationState {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: false)
        return state
    }

    @Test func theSecondFactorHasItsOwnRootAndAnEmptyStack() {
        var state = signedOut()
        state.open(url: Fixtures.url("myapp://signIn?token=T"))
        #expect(state.path == [.signIn(token: "T")])
        state.awaitingSecondFactor()
        #expect(state.authState == .awaitingSecondFactor)
        #expect(state.root == .secondFactor)
        #expect(state.path == [], "the screen that did the first factor is done")
        state.signedIn()
        #expect(state.authState == .loggedIn)
        #expect(state.root == .home)
    }

    @Test func aLinkHeldForSignInWaitsForTheSecondFactorAndOpensAfterIt() {
        var state = signedOut()
        let route = DeepLinkRoute(.itemDetail(id: "9"))
        #expect(state.open(url: Fixtures.url("myapp://home/item/9")) == .deferred(route))
        state.awaitingSecondFactor()
        #expect(state.pendingRoute == route)
        #expect(state.path == [])
        state.signedIn()
        #expect(state.path == [.itemList, .itemDetail(id: "9")])
        #expect(state.pendingRoute == nil)
    }

    @Test func anAuthLinkArrivingDuringTheSecondFactorIsHeldAndResumed() {
        var state = signedOut()
        state.awaitingSecondFactor()
        let route = DeepLinkRoute(.profile)
        #expect(state.open(url: Fixtures.url("https://links.example.com/home/profile")) == .deferred(route))
        #expect(state.root == .secondFactor)
        #expect(state.path == [])
        #expect(state.pendingRoute == route)
        state.signedIn()
        #expect(state.path == [.profile])
    }

    @Test func tokenLinksOpenOnTheSecondFactorRootAndTheHeldLinkWaitsOn() {
        var state = signedOut()
        state.open(url: Fixtures.url("myapp://home/items"))
        state.awaitingSecondFactor()
        #expect(state.open(url: Fixtures.url("myapp://confirmAuth?token=T"))
                == .opened(DeepLinkRoute(.confirmAuth(token: "T"))))
        #expect(state.root == .secondFactor)
        #expect(state.path == [.confirmAuth(token: "T")])
        #expect(state.pendingRoute == DeepLinkRoute(.itemList))
        state.signedIn()
        #expect(state.path == [.itemList])
    }

    @Test func givingUpTheSecondFactorClearsTheHeldLink() {
        var state = signedOut()
        state.open(url: Fixtures.url("myapp://home/profile"))
        state.awaitingSecondFactor()
        state.open(url: Fixtures.url("myapp://home/items"))
        state.signedOut()
        #expect(state.authState == .loggedOut)
        #expect(state.root == .signIn)
        #expect(state.path == [])
        #expect(state.pendingRoute == nil)
        state.signedIn()
        #expect(state.path == [], "nothing of the abandoned sign-in opens for the next one")
    }

    @Test func aSignedInUserIsNeverSentToTheSecondFactorScreen() {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: true)
        state.open(url: Fixtures.url("myapp://home/profile"))
        state.awaitingSecondFactor()
        #expect(state.authState == .loggedIn)
        #expect(state.root == .home)
        #expect(state.path == [.profile])
    }

    @Test func atLaunchALinkThatNeedsNoSignInOpensAndOneThatDoesWaits() {
        var tokenLink = NavigationState(parser: Fixtures.parser)
        tokenLink.open(url: Fixtures.url("myapp://resetPassword?token=T"))
        tokenLink.awaitingSecondFactor()
        #expect(tokenLink.root == .secondFactor)
        #expect(tokenLink.path == [.resetPassword(token: "T")])
        #expect(tokenLink.pendingRoute == nil)

        var authLink = NavigationState(parser: Fixtures.parser)
        authLink.open(url: Fixtures.url("myapp://home/profile"))
        authLink.awaitingSecondFactor()
        #expect(authLink.path == [])
        #expect(authLink.pendingRoute == DeepLinkRoute(.profile))
    }

    @Test func aRelaunchForgetsTheSecondFactorAndKeepsTheHeldLinkForTheNextSignIn() throws {
        var state = signedOut()
        state.open(url: Fixtures.url("myapp://home/items"))
        state.awaitingSecondFactor()
        let data = try state.snapshot.encoded()
        #expect(String(decoding: data, as: UTF8.self)
                == #"{"path":[],"pendingRoute":{"path":[{"itemList":{}}]},"version":1}"#)
        var next = NavigationState(parser: Fixtures.parser, restoring: try NavigationSnapshot(data: data))
        next.authStateDetermined(signedIn: false)
        #expect(next.root == .signIn)
        next.signedIn()
        #expect(next.path == [.itemList])
    }

    @Test func theNewStateAndRootCodeAsTheOthersDo() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(AuthState.awaitingSecondFactor), as: UTF8.self)
                == #""awaitingSecondFactor""#)
        #expect(try JSONDecoder().decode(AuthState.self, from: Data(#""awaitingSecondFactor""#.utf8))
                == .awaitingSecondFactor)
        let root = try encoder.encode(NavigationRoot.secondFactor)
        #expect(String(decoding: root, as: UTF8.self) == #"{"secondFactor":{}}"#)
        #expect(try JSONDecoder().decode(NavigationRoot.self, from: root) == .secondFactor)
    }

    @Test func theStatePrintsTheNewStateAndRoot() {
        var state = signedOut()
        state.awaitingSecondFactor()
        #expect(String(describing: state)
                .hasPrefix("NavigationState(authState: awaitingSecondFactor, root: secondFactor,"))
    }
}
