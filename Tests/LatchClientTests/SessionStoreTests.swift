import Foundation
import LatchClient
import Testing

/// Stores/: the session, the device token and the pending sign-in by mail persist apart; clearing the session
/// keeps the other two.
@Suite struct SessionStoreTests {
    static let session = Session(
        accessToken: "access-1", refreshToken: "refresh-1",
        accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_900.25),
        refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_802_592_000.5),
        user: User(id: UUID(), email: "ada@example.com", confirmedAt: nil,
                   createdAt: Date(timeIntervalSince1970: 1_700_000_000.125)))

    static let pending = PendingEmailSignIn(
        email: "Ada@example.com", bindingSecret: Data((0..<32).map { UInt8($0 * 7 % 256) }),
        requestedAt: Date(timeIntervalSince1970: 1_800_000_000.375))

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("latch-client-\(UUID().uuidString)/store")
    }

    @Test func bothStoresKeepTheDeviceTokenWhenTheSessionIsCleared() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let stores: [any SessionStore] = [InMemorySessionStore(), FileSessionStore(directory: directory)]
        for store in stores {
            #expect(try store.loadSession() == nil)
            #expect(try store.loadDeviceToken() == nil)
            try store.saveSession(Self.session)
            try store.saveDeviceToken("device-1")
            #expect(try store.loadSession() == Self.session, "dates to the fraction of a second: \(type(of: store))")
            try store.clearSession()
            try store.clearSession()
            #expect(try store.loadSession() == nil)
            #expect(try store.loadDeviceToken() == "device-1")
        }
    }

    @Test func bothStoresKeepOnePendingSignInByMailUntilItIsCleared() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let stores: [any SessionStore] = [InMemorySessionStore(), FileSessionStore(directory: directory)]
        for store in stores {
            #expect(try store.loadPendingEmailSignIn() == nil)
            try store.clearPendingEmailSignIn()
            try store.savePendingEmailSignIn(Self.pending)
            #expect(try store.loadPendingEmailSignIn() == Self.pending,
                    "to the fraction of a second: \(type(of: store))")
            try store.saveSession(Self.session)
            try store.clearSession()
            #expect(try store.loadPendingEmailSignIn() == Self.pending, "a sign-out leaves it")
            let newer = PendingEmailSignIn(email: "bob@example.com", bindingSecret: Data(repeating: 1, count: 32),
                                           requestedAt: Self.pending.requestedAt + 60)
            try store.savePendingEmailSignIn(newer)
            #expect(try store.loadPendingEmailSignIn() == newer, "one at a time")
            try store.clearPendingEmailSignIn()
            #expect(try store.loadPendingEmailSignIn() == nil)
        }
    }

    @Test func aPendingSignInByMailPrintsWithoutItsSecret() {
        let secret = Self.pending.bindingSecret
        var dumped = ""
        dump(Self.pending, to: &dumped)
        for text in [String(describing: Self.pending), String(reflecting: Self.pending), "\(Self.pending)", dumped] {
            #expect(text.contains("Ada@example.com"), "\(text)")
            for form in [secret.base64EncodedString(), secret.map { String($0) }.joined(separator: ", "),
                         String(describing: Array(secret))] {
                #expect(!text.contains(form), "\(text)")
            }
        }
        #expect(dumped.contains("<redacted>"))
    }

    @Test func theFilesAreTheOwnersOnlyAndReplacedWhole() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = FileSessionStore(directory: directory)
        try store.saveSession(Self.session)
        try store.saveDeviceToken("device-1")
        try store.saveDeviceToken("device-2")
        try store.savePendingEmailSignIn(Self.pending)
        let manager = FileManager.default
        #expect(try manager.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
        let names = ["device-token", "pending-email-signin.json", "session.json"]
        for name in names {
            let path = directory.appendingPathComponent(name).path
            #expect(try manager.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600, "\(name)")
        }
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted() == names,
                "no temporary file is left behind")
        #expect(try store.loadDeviceToken() == "device-2")
    }

    @Test func aRelaunchedClientIsSignedInFromTheFileWithoutARequest() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let clock = TestClock()
        let server = FakeLatchServer(clock: clock)
        let first = LatchClient(baseURL: Harness.baseURL, store: FileSessionStore(directory: directory),
                                transport: server, now: clock.function)
        let user = try await first.signIn(email: "ada@example.com", password: "correct horse battery staple").user
        #expect(user != nil)

        let relaunched = LatchClient(baseURL: Harness.baseURL, store: FileSessionStore(directory: directory),
                                     transport: server, now: clock.function)
        #expect(await relaunched.currentUser == user)
        #expect(try await relaunched.accessToken() == "access-2")
        #expect(server.allRequests.map(\.url.path) == ["/v1/signin"])
    }

    @Test func anUnreadableSessionFileCountsAsSignedOut() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: directory.appendingPathComponent("session.json"))
        let client = LatchClient(baseURL: Harness.baseURL, store: FileSessionStore(directory: directory),
                                 transport: FakeLatchServer(clock: TestClock()))
        #expect(await client.currentUser == nil)
    }
}
