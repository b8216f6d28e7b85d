import AuthCore
import Foundation
import LatchApp
import LatchTestSupport
import Mailer
import PostgresClient
import TestKit
import Testing

/// Issue 24, item 4: the outbox row id is a counter shared by every account. When Message-IDs carried it
/// (`<outbox-{id}.…@domain>`), the gap between two of one's own mails told whether a reset, a resend or an email
/// change for someone else's address had queued mail in between. latchd's Message-IDs are now a keyed HMAC of the
/// row id (`HMACMessageIDTokens`): still the same for every attempt at one row, silent about every other row.
@Suite(.serialized) struct MessageIDPrivacyTests {
    // MARK: - The keyed tokens

    @Test func theSameRowGetsTheSameMessageIDOnEveryAttemptFromEveryDaemonSharingTheSecret() throws {
        let tokens = try Self.tokens()
        // Another instance stands for another daemon, or this one after a restart: a resend after a crash.
        let again = try Self.tokens()
        for id: Int64 in [1, 2, 6_000_000_000, .max] {
            #expect(tokens.token(outboxID: id) == tokens.token(outboxID: id))
            #expect(tokens.token(outboxID: id) == again.token(outboxID: id))
        }
        let link = URL(string: TestApp.linkBase + "/resetPassword?token=abc")
        let composed = try MailTemplates(productName: "Latch").compose(
            MailRequest(kind: .resetPassword, recipient: "ann@example.test", deepLink: link, linkLifetime: 3600))
        let sender = MailSender(from: try MailAddress(parsing: "no-reply@latch.example.test"))
        // Two attempts an hour apart, each building its message anew, as the worker does.
        let attempts = try [Date(), Date().addingTimeInterval(3600)].map { date in
            try MailMessage(composed: composed, sender: sender, outboxID: 6_000_000_000, tokens: again, date: date)
                .messageID
        }
        #expect(Set(attempts) == ["<9fd6ead957a69b3b283d0a76e71f4022@latch.example.test>"])
    }

    /// Pinned to values computed with Python's `hmac` (HKDF-Expand of `TestSecret` for `latch/mail-message-ids/v1`,
    /// then HMAC-SHA256 of the 8-byte big-endian id, first 16 bytes): a change of the derivation would give a mail
    /// in flight during an upgrade a second Message-ID, so it must be a decision, not an accident.
    @Test func tokensAreTheFirst128BitsOfTheHMACOfTheBigEndianRowID() throws {
        let tokens = try Self.tokens()
        #expect(tokens.token(outboxID: 1) == "743c364ff35d39db9f523af0d5f5a0bc")
        #expect(tokens.token(outboxID: 2) == "324435c71b847e5ee58a5baefa3ec7d8")
        #expect(tokens.token(outboxID: 6_000_000_000) == "9fd6ead957a69b3b283d0a76e71f4022")
    }

    /// Neighbouring rows are exactly what the attack compares. Their tokens must share nothing beyond chance: no
    /// digits of the ids, no long common run, about half of their 128 bits different, and no order.
    @Test func consecutiveRowsGetTokensThatShowNeitherOrderNorDistance() throws {
        let tokens = try Self.tokens()
        for id: Int64 in [1, 9, 99, 4_294_967_295, 6_000_000_000, 9_876_543_210, .max - 1] {
            let (this, next) = (tokens.token(outboxID: id), tokens.token(outboxID: id + 1))
            #expect(this.range(of: "^[0-9a-f]{32}$", options: .regularExpression) != nil, "\(this)")
            #expect(this != next)
            if id >= 1_000_000 {
                for row in [id, id + 1] {
                    #expect(!this.contains(String(row)) && !next.contains(String(row)), "\(row) in \(this) / \(next)")
                    #expect(!this.contains(String(row, radix: 16)) && !next.contains(String(row, radix: 16)))
                }
            }
            #expect(Self.longestCommonRun(this, next) < 8, "\(this) and \(next) share a long run")
            // 64 expected, standard deviation 5.7: outside 32...96 the bits would follow the id.
            #expect((32...96).contains(Self.differingBits(this, next)), "\(this) / \(next)")
        }
        // In id order, a token is greater than the one before about half of the time: the order says nothing.
        let sequence = (1...400).map { tokens.token(outboxID: Int64($0)) }
        let rising = zip(sequence, sequence.dropFirst()).filter { $0 < $1 }.count
        #expect((140...259).contains(rising), "\(rising) of 399 steps rise")
        #expect(Set(sequence).count == sequence.count)
    }

    @Test func anotherServerSecretGivesOtherTokens() throws {
        let tokens = try Self.tokens()
        let other = HMACMessageIDTokens(secret: try ServerSecret(bytes: Data(repeating: 0x5a, count: 32)))
        let ids = (1...200).map(Int64.init) + [6_000_000_000]
        #expect(Set(ids.map(tokens.token(outboxID:))).isDisjoint(with: ids.map(other.token(outboxID:))))
    }

    // MARK: - The attack, against latchd

    /// The attack of the issue: mail to one's own address, a forgotten-password request for a stranger's registered
    /// address, mail to one's own address again. The stranger's reset is queued between the two (checked in the
    /// table), and neither Message-ID the attacker receives may show it.
    @Test func aResetForSomeoneElseBetweenTwoOfOnesOwnMailsLeavesNoTraceInTheirMessageIDs() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        // Ten-digit row ids, so that "the Message-ID contains the id" means something: a one-digit id is in almost
        // any 32-digit hex string by chance. A deployment that has sent mail for a while has such ids anyway.
        let start = Int64.random(in: 3_000_000_000...8_000_000_000)
        _ = try pool.query("SELECT setval(pg_get_serial_sequence('outbox', 'id'), \(start))")
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let daemon = try MailDaemon(databaseURL: database.url, smtpURL: sink.url)
        defer { daemon.terminate() }
        let own = MailEnvironment.recipient("attacker")
        let stranger = MailEnvironment.recipient("stranger")
        for email in [own, stranger] {
            #expect(try daemon.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        }

        let first = try resetMail(number: 1, to: own, daemon: daemon, sink: sink)
        #expect(try daemon.post("/v1/password/forgot", #"{"email":"\#(stranger)"}"#).status == 202)
        #expect(try eventually { try Self.resetRows(to: stranger, pool).count == 1 }, "the stranger's reset is queued")
        let second = try resetMail(number: 2, to: own, daemon: daemon, sink: sink)

        let ownRows = try Self.resetRows(to: own, pool)
        let strangersRow = try #require(try Self.resetRows(to: stranger, pool).first)
        try #require(ownRows.count == 2)
        #expect(ownRows[0].id < strangersRow.id && strangersRow.id < ownRows[1].id, "queued between the own two")

        let messageIDs = [first, second].map { $0.messageID ?? "" }
        for (mail, messageID) in zip([first, second], messageIDs) {
            MailChecks.expectWellFormed(mail, to: own, subjectContains: "Reset your")
            for row in ownRows + [strangersRow] {
                let hex = String(row.id, radix: 16)
                #expect(!messageID.contains(String(row.id)), "\(messageID) holds row id \(row.id)")
                #expect(!messageID.lowercased().contains(hex), "\(messageID) holds row id \(row.id) as \(hex)")
            }
        }
        #expect(messageIDs[0] != messageIDs[1])
        // What the attacker computed before: the counter in each Message-ID, and the gap between the two.
        let readings = messageIDs.compactMap(Self.counterReading)
        let gap = readings.count == 2 ? readings[1] - readings[0] : nil
        #expect(readings.isEmpty, "the gap between one's own Message-IDs reads \(gap.map(String.init) ?? "nothing")")
    }

    // MARK: - Helpers

    private static func tokens() throws -> HMACMessageIDTokens {
        try MailEnvironment.messageIDTokens()
    }

    /// The `number`th reset mail to `email`, after asking for it.
    private func resetMail(number: Int, to email: String, daemon: MailDaemon, sink: SMTPSink) throws -> ReceivedMail {
        #expect(try daemon.post("/v1/password/forgot", #"{"email":"\#(email)"}"#).status == 202)
        var resets: [ReceivedMail] = []
        _ = try eventually(every: .milliseconds(50)) {
            resets = try sink.messages(to: email).filter { $0.subject?.contains("Reset your") == true }
            return resets.count >= number
        }
        // Each reset is asked for after the one before arrived, and the sink numbers its files as they arrive.
        try #require(resets.count == number, "\(resets.count) reset mails to \(email), wanted \(number)")
        return resets[number - 1]
    }

    private static func resetRows(to email: String, _ pool: PostgresPool) throws -> [OutboxRow] {
        try OutboxRow.to(email, pool).filter { $0.kind == "reset_password" }
    }

    /// The number the old Message-IDs carried (`<outbox-{id}.…>`), as an attacker reads it; nil when there is none.
    private static func counterReading(_ messageID: String) -> Int64? {
        guard let range = messageID.range(of: #"outbox-[0-9]+"#, options: .regularExpression) else { return nil }
        return Int64(messageID[range].dropFirst("outbox-".count))
    }

    /// The length of the longest run of characters the two strings share (at any positions).
    private static func longestCommonRun(_ a: String, _ b: String) -> Int {
        let (x, y) = (Array(a), Array(b))
        var previous = [Int](repeating: 0, count: y.count + 1)
        var longest = 0
        for i in x.indices {
            var current = [Int](repeating: 0, count: y.count + 1)
            for j in y.indices where x[i] == y[j] {
                current[j + 1] = previous[j] + 1
                longest = max(longest, current[j + 1])
            }
            previous = current
        }
        return longest
    }

    /// How many of the bits that two hex strings of equal length encode differ.
    private static func differingBits(_ a: String, _ b: String) -> Int {
        zip(a, b).reduce(0) { count, pair in
            count + ((pair.0.hexDigitValue ?? 0) ^ (pair.1.hexDigitValue ?? 0)).nonzeroBitCount
        }
    }
}
