import DeepLinkRouting
import Foundation
import Testing

@Suite struct NavigationSnapshotTests {
    func relaunch(_ state: NavigationState) throws -> NavigationState {
        let data = try state.snapshot.encoded()
        return NavigationState(parser: Fixtures.parser, restoring: try NavigationSnapshot(data: data))
    }

    @Test func aSignUpWaitingForConfirmationResumesAtLaunch() throws {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: false)
        state.awaitingConfirmation(email: "ada@example.com")
        var next = try relaunch(state)
        #expect(next.root == .launching)
        next.authStateDetermined(signedIn: false)
        #expect(next.root == .awaitingConfirmation(email: "ada@example.com"))
    }

    @Test func theStackComesBackForTheSignedInUser() throws {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: true)
        state.open(url: Fixtures.url("myapp://item/5"))
        var next = try relaunch(state)
        next.authStateDetermined(signedIn: true)
        #expect(next.path == [.itemList, .itemDetail(id: "5")])
    }

    @Test func aRestoredStackWaitsForSignInWhenTheSessionIsGone() throws {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: true)
        state.path = [.profile]
        var next = try relaunch(state)
        next.authStateDetermined(signedIn: false)
        #expect(next.root == .signIn)
        #expect(next.path == [])
        next.signedIn()
        #expect(next.path == [.profile])
    }

    @Test func aPendingLinkSurvivesARelaunch() throws {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: false)
        state.open(url: Fixtures.url("myapp://home/items"))
        var next = try relaunch(state)
        next.authStateDetermined(signedIn: true)
        #expect(next.path == [.itemList])
    }

    @Test func snapshotsHoldNoTokens() throws {
        var state = NavigationState(parser: Fixtures.parser)
        state.authStateDetermined(signedIn: true)
        state.path = [.profile, .confirmAuth(token: Fixtures.token), .itemList]
        #expect(state.snapshot.path == [.profile])
        state.path = [.profile, .confirmEmailChange(token: Fixtures.token)]
        #expect(state.snapshot.path == [.profile])
        let json = String(decoding: try state.snapshot.encoded(), as: UTF8.self)
        #expect(!json.contains(Fixtures.token))
        #expect(!json.lowercased().contains("password"))

        var launching = NavigationState(parser: Fixtures.parser)
        launching.open(url: Fixtures.url("myapp://resetPassword?token=\(Fixtures.token)"))
        #expect(launching.pendingRoute != nil)
        #expect(launching.snapshot.pendingRoute == nil)
    }

    @Test func editedDataCannotSmuggleATokenBackIn() throws {
        let json = #"{"path":[{"resetPassword":{"token":"T"}}],"version":1}"#
        let snapshot = try NavigationSnapshot(data: Data(json.utf8))
        #expect(snapshot.path == [])
        let badRoute = #"{"path":[],"pendingRoute":{"path":[{"profile":{}},{"home":{}}]},"version":1}"#
        #expect(throws: DecodingError.self) { try NavigationSnapshot(data: Data(badRoute.utf8)) }
    }

    @Test func otherVersionsAndGarbageAreRefused() {
        #expect(throws: DecodingError.self) { try NavigationSnapshot(data: Data(#"{"path":[],"version":2}"#.utf8)) }
        #expect(throws: (any Error).self) { try NavigationSnapshot(data: Data("not json".utf8)) }
    }

    @Test func encodingIsStable() throws {
        let snapshot = NavigationSnapshot(path: [.itemList], pendingRoute: nil, signUpEmail: "a@b.c")
        #expect(String(decoding: try snapshot.encoded(), as: UTF8.self)
            == #"{"path":[{"itemList":{}}],"signUpEmail":"a@b.c","version":1}"#)
    }
}
