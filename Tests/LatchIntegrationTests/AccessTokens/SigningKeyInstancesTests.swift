import Foundation
import LatchTestSupport
import PostgresClient
import Synchronization
import Testing

/// Several latchd instances on one database agree on the keys through it alone: one first key however they
/// start, each other's tokens accepted, and after a rotation the same new key everywhere.
@Suite struct SigningKeyInstancesTests {
    @Test func instancesStartingTogetherOnANewDatabaseMakeOneKeyAndAcceptEachOthersTokens() throws {
        let database = try TestDatabase.migrated()
        let started = Mutex<[TestApp]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            do {
                let app = try TestApp(database: database)
                started.withLock { $0.append(app) }
            } catch {
                failures.withLock { $0.append(String(describing: error)) }
            }
        }
        let apps = started.withLock { $0 }
        defer {
            for app in apps.dropFirst() { app.stopKeepingDatabase() }
            if let first = apps.first { first.stop() } else { database.drop() }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        try #require(apps.count == 3)
        let first = apps[0]
        #expect(try first.count("SELECT count(*)::int8 FROM signing_keys") == 1)
        #expect(try first.count("SELECT count(*)::int8 FROM audit_log WHERE event = 'signing_key_created'") == 1)
        #expect(Set(try apps.map { try $0.publishedKids() }).count == 1, "one key set everywhere")

        let session = try first.signUpAndConfirm("zed@example.test", "zed passphrase")
        for app in apps { #expect(try app.me(session.access_token).status == 200) }
        let fromLast = try apps[2].session("zed@example.test", "zed passphrase")
        #expect(try first.me(fromLast.access_token).status == 200)
    }

    @Test func afterARotationEveryInstanceSignsWithTheNewKey() throws {
        let clock = ShiftedClock()
        let one = try TestApp(clock: clock)
        defer { one.stop() }
        let two = try TestApp(database: one.database, clock: clock)
        defer { two.stopKeepingDatabase() }
        _ = try one.signUpAndConfirm("amy@example.test", "amy passphrase")
        let rotated = try Latchctl(databaseURL: one.database.url)("keys", "rotate", "--json")
        let next = try #require(try rotated.jsonObject()["kid"] as? String)
        try one.ageSigningKeys(by: 600 + 65)
        clock.advance(by: 5)

        let fromOne = try one.session("amy@example.test", "amy passphrase").access_token
        let fromTwo = try two.session("amy@example.test", "amy passphrase").access_token
        #expect(try [fromOne, fromTwo].map(TestApp.kid(of:)) == [next, next])
        #expect(try one.me(fromTwo).status == 200 && two.me(fromOne).status == 200)
        #expect(try one.publishedKids() == two.publishedKids())
    }
}
