#if canImport(Observation)
import DeepLinkRouting
import Foundation
import Observation
import TestKit
import Testing

@MainActor
@Suite struct NavigationModelTests {
    @Test func reportsRejectedLinksWithoutTheirURL() {
        var reasons: [DeepLinkRejection] = []
        let model = NavigationModel(parser: Fixtures.parser) { reasons.append($0) }
        model.authStateDetermined(signedIn: true)
        model.open(url: Fixtures.url("myapp://confirmAuth?token=a&token=b"))
        model.open(url: Fixtures.url("myapp://home/profile"))
        #expect(reasons == [.duplicateParameter("token")])
        #expect(model.path == [.profile])
    }

    @Test func publishesPathChangesToSwiftUI() {
        let model = NavigationModel(parser: Fixtures.parser)
        model.authStateDetermined(signedIn: true)
        let changed = Locked(false)
        withObservationTracking { _ = model.path } onChange: { changed.update { $0 = true } }
        model.open(url: Fixtures.url("myapp://home/items"))
        #expect(changed.value)
    }

    @Test func thePathIsWritableLikeANavigationStackBinding() {
        let model = NavigationModel(parser: Fixtures.parser)
        model.authStateDetermined(signedIn: true)
        model.open(.itemDetail(id: "3"))
        model.path.removeLast()
        #expect(model.path == [.itemList])
    }

    @Test func restoresFromItsOwnDataAndStartsFreshFromGarbage() {
        let first = NavigationModel(parser: Fixtures.parser)
        first.authStateDetermined(signedIn: false)
        first.awaitingConfirmation(email: "ada@example.com")
        let restored = NavigationModel(parser: Fixtures.parser, restoring: first.restorationData())
        restored.authStateDetermined(signedIn: false)
        #expect(restored.root == .awaitingConfirmation(email: "ada@example.com"))

        let fresh = NavigationModel(parser: Fixtures.parser, restoring: Data("{".utf8))
        fresh.authStateDetermined(signedIn: false)
        #expect(fresh.root == .signIn)
        #expect(fresh.pendingRoute == nil)
    }

    @Test func theSecondFactorThroughTheModelHoldsALinkUntilItSucceeds() {
        let model = NavigationModel(parser: Fixtures.parser)
        model.authStateDetermined(signedIn: false)
        model.awaitingSecondFactor()
        #expect(model.authState == .awaitingSecondFactor)
        #expect(model.root == .secondFactor)
        #expect(model.open(url: Fixtures.url("myapp://home/profile")).isDeferred)
        #expect(model.pendingRoute == DeepLinkRoute(.profile))
        let changed = Locked(false)
        withObservationTracking { _ = model.root } onChange: { changed.update { $0 = true } }
        model.signedIn()
        #expect(changed.value)
        #expect(model.path == [.profile])
    }

    @Test func signOutThroughTheModelEmptiesThePath() {
        let model = NavigationModel(parser: Fixtures.parser)
        model.authStateDetermined(signedIn: true)
        model.open(.profile)
        model.signedOut()
        #expect(model.authState == .loggedOut)
        #expect(model.root == .signIn)
        #expect(model.path.isEmpty)
    }
}
#endif
