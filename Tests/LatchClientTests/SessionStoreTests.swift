import Foundation
import LatchClient
import Testing

/// Stores/: the session and the device token persist apart; clearing the session keeps the device token.
@Suite struct SessionStoreTests {
    static let session = Session(
        accessToken: "access-1", refreshToken: "refresh-1",
        accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_900.25),
        refreshTokenExpiresAt: Date(timeIntervalSince1970: 1_802_592_000.5),
        user: User(id: UUID(), email: "ada@example.com", confirmedAt: nil,
                   createdAt: Date(timeIntervalSince1970: 1_700_000_000.125)))

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

    @Test func theFilesAreTheOwnersOnlyAndReplacedWhole() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store = FileSessionStore(directory: directory)
        try store.saveSession(Self.session)
        try store.saveDeviceToken("device-1")
        try store.saveDeviceToken("device-2")
        let manager = FileManager.default
        #expect(try manager.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
        for name in ["session.json", "device-token"] {
            let path = directory.appendingPathComponent(name).path
            #expect(try manager.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600, "\(name)")
        }
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted() == ["device-token", "session.json"],
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
        let user = try await first.signIn(email: "ada@example.com", password: "correct horse battery staple")

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
