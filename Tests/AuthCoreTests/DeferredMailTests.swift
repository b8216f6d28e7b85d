import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// Forgot and resend answer after the same one write for every address; the lookup, the token and the mail
/// follow in `resolveDeferredMail`, off the answer's path.
@Suite("Mail asked for by address is queued by the answer and resolved after it")
struct DeferredMailTests {
    enum Flow: String, CaseIterable, CustomTestStringConvertible {
        case forgot, resend, signIn
        var testDescription: String { rawValue }

        func ask(_ h: Harness, _ email: String) throws {
            switch self {
            case .forgot: try h.service.forgotPassword(email: email, ip: Harness.ip)
            case .resend: _ = try h.service.resendConfirmation(email: email, ip: Harness.ip)
            case .signIn:
                try h.service.requestEmailSignIn(email: email, binding: EmailSignInTests.binding(h),
                                                 ip: Harness.ip, userAgent: Harness.agent)
            }
        }

        var mailKind: MailKind {
            switch self {
            case .forgot: .resetPassword
            case .resend: .confirmEmail
            case .signIn: .signIn
            }
        }
    }

    /// What an answer wrote, with the address taken out: equal for two addresses means the write told nothing.
    struct Written: Equatable {
        var tokens: Int, outbox: Int, audit: Int, hits: Int
        var queued: [DeferredMail]

        init(_ state: InMemoryAuthStore.State) {
            tokens = state.tokens.count
            outbox = state.outbox.count
            audit = state.audit.count
            hits = state.hitLog.count
            queued = state.deferredMail.map { DeferredMail(kind: $0.kind, email: "-", ip: $0.ip, requestedAt: $0.requestedAt) }
        }
    }

    @Test(arguments: Flow.allCases)
    func theAnswerWritesTheSameForEveryAddress(_ flow: Flow) throws {
        var written: [Written] = []
        for email in ["alice@example.com", "nobody@example.com"] {
            let h = Harness()
            try h.signUp()  // unconfirmed, so that resend has something to send
            let before = h.store.snapshot
            try flow.ask(h, email)
            let after = h.store.snapshot
            #expect(after.deferredMail.map(\.email) == [email])
            #expect(after.tokens.count == before.tokens.count && after.outbox.count == before.outbox.count
                    && after.audit.count == before.audit.count, "no lookup's result is written by the answer")
            written.append(Written(after))
        }
        #expect(written[0] == written[1])
    }

    @Test(arguments: Flow.allCases)
    func theResolutionMailsAnAccountAndNobodyElse(_ flow: Flow) throws {
        let h = Harness()
        try h.signUp()
        let mails = h.store.mails.count
        try flow.ask(h, "nobody@example.com")
        try flow.ask(h, "ALICE@example.com")
        #expect(try h.service.resolveAllDeferredMail() == 2)
        let sent = h.store.mails.dropFirst(mails)
        #expect(sent.map(\.recipient) == ["alice@example.com"])
        #expect(sent.map(\.kind) == [flow.mailKind])
        #expect(h.store.snapshot.deferredMail.isEmpty)
        #expect(try h.service.resolveAllDeferredMail() == 0)
    }

    /// The audit row says when the user asked; the link's lifetime starts when it is made.
    @Test func theAuditRowKeepsTheTimeOfTheRequest() throws {
        let h = Harness()
        try h.confirmedUser()
        let asked = h.clock.now()
        try h.service.forgotPassword(email: "alice@example.com", ip: Harness.ip)
        h.clock.advance(by: 2)
        try h.service.resolveAllDeferredMail()
        let audit = try #require(h.store.auditEvents.last)
        #expect(audit.name == .passwordResetRequested && audit.at == asked && audit.ip == Harness.ip)
        let token = try #require(h.store.snapshot.tokens.values.first { $0.record.purpose == .reset })
        #expect(token.createdAt == asked.addingTimeInterval(2))
    }

    @Test func aStoreErrorLeavesTheRequestForTheNextTry() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.service.forgotPassword(email: "alice@example.com", ip: nil)
        h.store.setFailing(true)
        #expect(throws: InMemoryAuthStore.DatabaseDown.self) { try h.service.resolveDeferredMail() }
        h.store.setFailing(false)
        #expect(h.store.snapshot.deferredMail.count == 1)
        #expect(try h.service.resolveDeferredMail())
        #expect(h.store.mails.last?.kind == .resetPassword)
    }

    /// A wrong code for an address without an account is audited as for one with an account (with no user):
    /// the same writes, so the answer's time cannot tell them apart.
    @Test func aWrongCodeIsAuditedForEveryAddress() throws {
        let h = Harness()
        try h.signUp()
        for email in ["alice@example.com", "nobody@example.com"] {
            #expect(throws: AuthError.invalidCode) {
                try h.service.confirm(email: email, code: "00000000", ip: Harness.ip, userAgent: nil)
            }
        }
        let wrong = h.store.auditEvents.filter { $0.name == .wrongCode }
        #expect(wrong.map { $0.userID == nil } == [false, true])
    }
}
