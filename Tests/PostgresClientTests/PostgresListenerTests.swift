import Foundation
import Testing

@testable import PostgresClient

@Suite struct PostgresListenerTests {
    @Test func deliversNotificationsWithPayload() throws {
        try withDatabase { pool, database throws in
            let listener = try PostgresListener(url: database.url, channels: ["outbox"])
            defer { listener.close() }
            try pool.notify(channel: "outbox", payload: "42")
            try pool.notify(channel: "outbox")
            let first = try #require(listener.next(timeout: .seconds(10)))
            #expect(first.channel == "outbox" && first.payload == "42" && first.senderProcessID > 0)
            #expect(listener.next(timeout: .seconds(10))?.payload == "")
        }
    }

    @Test func timesOutWithNil() throws {
        try withDatabase { _, database throws in
            let listener = try PostgresListener(url: database.url, channels: ["quiet"])
            defer { listener.close() }
            #expect(listener.next(timeout: .milliseconds(50)) == nil)
        }
    }

    @Test func onlySubscribedChannelsAndOnlyAfterCommit() throws {
        try withDatabase { pool, database throws in
            let listener = try PostgresListener(url: database.url)
            try listener.listen("Mixed Case \"quoted\"")
            defer { listener.close() }
            try pool.notify(channel: "other", payload: "not for us")
            try pool.transaction { connection in
                try connection.query("SELECT pg_notify($1, $2)", ["Mixed Case \"quoted\"", "committed"])
                #expect(listener.next(timeout: .milliseconds(100)) == nil)
            }
            let received = try #require(listener.next(timeout: .seconds(10)))
            #expect(received.channel == "Mixed Case \"quoted\"" && received.payload == "committed")
        }
    }

    @Test func rejectsInvalidChannelNames() throws {
        try withDatabase { _, database throws in
            let listener = try PostgresListener(url: database.url)
            defer { listener.close() }
            #expect(throws: PostgresError.self) { try listener.listen("") }
            #expect(throws: PostgresError.self) { try listener.listen(String(repeating: "x", count: 64)) }
        }
    }
}
