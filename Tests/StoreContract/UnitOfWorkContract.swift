import AuthCore
import Foundation
import Testing

/// `UnitOfWork.transaction`, and the two write-only ports whose rows no port reads back (`AuditLog`,
/// `MailOutbox`): for those the contract can only say that every shape of call is accepted, inside a transaction
/// or not.
enum UnitOfWorkContract {
    static let cases: [ContractCase] = [
        ContractCase("UnitOfWork.transaction: commits on return, its reads see its own writes", commit),
        ContractCase("UnitOfWork.transaction: a throw rolls back every write made inside and passes through",
                     rollback),
        ContractCase("UnitOfWork.transaction: a nested transaction commits with the outer one", nestedCommit),
        ContractCase("UnitOfWork.transaction: a nested transaction that throws rolls back alone", nestedRollback),
        ContractCase("UnitOfWork.transaction: a store error in a nested transaction leaves the outer one usable",
                     nestedStoreError),
        ContractCase("AuditLog.record and MailOutbox.enqueue: accepted alone and inside a transaction", writeOnly),
    ]

    struct Marker: Error, Equatable {}

    /// Writes of several ports under `label`: a user with its token, a session, a failure and a hit.
    struct Writes {
        var user: UserRecord
        var token: NewToken
        var session: ContractFixture.SignedIn
    }

    static func write(_ label: String, in store: any AuthStore, _ f: ContractFixture) throws -> Writes {
        let inner = ContractFixture(store: store, environment: f.environment)
        let (user, token) = try inner.user("\(label)@example.com")
        let session = try inner.signIn(user, at: 10)
        _ = try store.recordSignInFailure(emailKey: "\(label)@example.com", at: f.at(20), forgetBefore: f.at(0))
        _ = try store.recordHit(key: "uow:\(label)", windowStart: f.at(0))
        return Writes(user: user, token: token, session: session)
    }

    /// Whether every write of `writes` is there (true) or none is (false); a mix fails the case.
    static func expectAll(_ writes: Writes, committed: Bool, _ f: ContractFixture, _ comment: Comment) throws {
        let email = writes.user.email
        let seen = [
            try f.store.findUser(id: writes.user.id) != nil,
            try f.store.lookupToken(hash: writes.token.hash) != nil,
            try f.store.findSession(accessTokenHash: writes.session.credentials.accessTokenHash) != nil,
            try f.store.findTrustedDevice(tokenHash: writes.session.device) != nil,
            try f.store.signInFailures(emailKey: email) != nil,
            try f.hitsAfterOneMore("uow:\(email.prefix { $0 != "@" })") == 2,
        ]
        #expect(seen == Array(repeating: committed, count: seen.count), comment)
    }

    static func commit(_ f: ContractFixture) throws {
        let (writes, seenInside) = try f.store.transaction { store in
            let writes = try write("inside", in: store, f)
            return (writes, try store.findUser(id: writes.user.id))
        }
        #expect(seenInside == writes.user)
        try expectAll(writes, committed: true, f, "committed")
    }

    static func rollback(_ f: ContractFixture) throws {
        let before = try f.user("before@example.com").user
        var written: Writes?
        #expect(throws: Marker()) {
            try f.store.transaction { store in
                written = try write("inside", in: store, f)
                try store.setDisabled(userID: before.id, at: f.at(30))
                throw Marker()
            }
        }
        try expectAll(try #require(written), committed: false, f, "rolled back")
        #expect(try f.reload(before) == before, "a change to an earlier row is rolled back too")
    }

    static func nestedCommit(_ f: ContractFixture) throws {
        let (outer, inner) = try f.store.transaction { store in
            let outer = try write("outer", in: store, f)
            let inner = try store.transaction { nested in try write("inner", in: nested, f) }
            return (outer, inner)
        }
        try expectAll(outer, committed: true, f, "outer")
        try expectAll(inner, committed: true, f, "inner")

        var written: (Writes, Writes)?
        #expect(throws: Marker()) {
            try f.store.transaction { store in
                let outer = try write("outer2", in: store, f)
                let inner = try store.transaction { nested in try write("inner2", in: nested, f) }
                written = (outer, inner)
                throw Marker()
            }
        }
        let (outer2, inner2) = try #require(written)
        try expectAll(outer2, committed: false, f, "outer rolled back")
        try expectAll(inner2, committed: false, f, "its nested part with it")
    }

    static func nestedRollback(_ f: ContractFixture) throws {
        var inner: Writes?
        let (before, after) = try f.store.transaction { store in
            let before = try write("before", in: store, f)
            #expect(throws: Marker()) {
                try store.transaction { nested in
                    inner = try write("inner", in: nested, f)
                    throw Marker()
                }
            }
            return (before, try write("after", in: store, f))
        }
        try expectAll(before, committed: true, f, "written before the nested transaction")
        try expectAll(after, committed: true, f, "written after it")
        try expectAll(try #require(inner), committed: false, f, "the nested transaction's writes")
    }

    static func nestedStoreError(_ f: ContractFixture) throws {
        let taken = try f.user("taken@example.com").user
        let after = try f.store.transaction { store in
            #expect(throws: UserStoreError.emailTaken) {
                try store.transaction { nested in
                    try ContractFixture(store: nested, environment: f.environment).user(taken.email)
                }
            }
            return try write("after", in: store, f)
        }
        try expectAll(after, committed: true, f, "written after the failed nested transaction")
    }

    static func writeOnly(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let events = [
            AuditEvent(name: .signInFailed, at: f.at(10), userID: nil, ip: "203.0.113.7",
                       detail: ["email": "ann@example.com", "reason": "wrong_password"]),
            AuditEvent(name: .sessionRevoked, at: f.at(11), userID: ann.id, ip: nil),
            AuditEvent(name: .userDeleted, at: f.at(12), userID: UserID(), ip: nil, detail: [:]),
        ]
        for event in events { try f.store.record(event) }
        try f.store.enqueue(mail: f.mail(.signupAttempt, to: ann.email))
        try f.store.enqueue(mails: [f.mail(.passwordChanged, to: ann.email), f.mail(.accountDeleted, to: "b@example.com")])
        try f.store.enqueue(mails: [])
        try f.store.transaction { store in
            for event in events { try store.record(event) }
            try store.enqueue(mail: f.mail(.signupAttempt, to: ann.email))
            try store.enqueue(mails: [f.mail(.passwordChanged, to: ann.email)])
        }
    }
}
