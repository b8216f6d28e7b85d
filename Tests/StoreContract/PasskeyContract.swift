import AuthCore
import Foundation
import Synchronization
import Testing

/// `PasskeyStore`: one handle per user, made once even by racing calls; a challenge spent once, only for its
/// purpose and user and in time; a credential id registered once across all users; a use recorded only on the
/// count it was judged against; a user's passkeys changed only by that user; everything of a user gone with the
/// user; and sessions that name passkey methods.
enum PasskeyContract {
    static let cases: [ContractCase] = [
        ContractCase("PasskeyStore: a user's handle is made from the first candidate and kept, also by racing calls, "
                     + "and names its user", handles),
        ContractCase("PasskeyStore: a challenge is spent once, only unexpired, for its purpose and its user (or none)",
                     challenges),
        ContractCase("PasskeyStore: passkeys read back as stored, oldest first, and by credential id", storage),
        ContractCase("PasskeyStore: a credential id registered to anyone is refused, nothing written, and the "
                     + "transaction goes on", duplicates),
        ContractCase("PasskeyStore: a use is recorded only while the stored count is the expected one", uses),
        ContractCase("PasskeyStore: rename and remove touch only the user's own passkey; remove-all counts and keeps "
                     + "the handle", changes),
        ContractCase("PasskeyStore: a deleted user's passkeys, handle and challenges go with it", cascade),
        ContractCase("PasskeyStore: sessions open and re-authenticate with passkey methods", sessions),
    ]

    /// `count` random bytes.
    static func bytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: .min ... .max) }) }

    /// A passkey of `user` created at `seconds`, with a fresh credential id unless one is given.
    static func passkey(_ f: ContractFixture, of user: UserRecord, at seconds: TimeInterval, name: String = "Passkey",
                        credentialID: Data? = nil, signCount: UInt32 = 0, backupEligible: Bool = true) -> PasskeyRecord
    {
        PasskeyRecord(
            userID: user.id, credentialID: credentialID ?? bytes(16), publicKey: bytes(77), algorithm: .es256,
            signCount: signCount, backupEligible: backupEligible, backedUp: false, transports: ["internal", "hybrid"],
            aaguid: Data(count: 16), name: name, createdAt: f.at(seconds))
    }

    /// A passkey stored for `user` (the case fails if the store refuses it).
    @discardableResult
    static func added(_ f: ContractFixture, of user: UserRecord, at seconds: TimeInterval, name: String = "Passkey",
                      signCount: UInt32 = 0) throws -> PasskeyRecord
    {
        let stored = passkey(f, of: user, at: seconds, name: name, signCount: signCount)
        guard try f.store.addPasskey(stored) else { throw ContractFailure.missing("passkey \(name)") }
        return stored
    }

    /// A challenge of `purpose` for `user`, created at `seconds`, living 300 s.
    @discardableResult
    static func challenge(_ f: ContractFixture, _ purpose: PasskeyChallengePurpose, for user: UserRecord?,
                          at seconds: TimeInterval) throws -> NewPasskeyChallenge
    {
        let challenge = NewPasskeyChallenge(purpose: purpose, userID: user?.id, digest: f.digest(),
                                            createdAt: f.at(seconds), expiresAt: f.at(seconds + 300))
        try f.store.storeChallenge(challenge)
        return challenge
    }

    static func handles(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("handle@example.com")
        let first = bytes(32)
        #expect(try f.store.userHandle(userID: ann.id, candidate: first) == first)
        #expect(try f.store.userHandle(userID: ann.id, candidate: bytes(32)) == first, "the same ever after")
        #expect(try f.store.userID(forHandle: first) == ann.id)
        #expect(try f.store.userID(forHandle: bytes(32)) == nil)

        // Two calls at once, each with its own candidate, agree on one handle; several users, since one pair of
        // threads may happen not to overlap.
        for index in 0..<4 {
            let user = try f.confirmedUser("raced-\(index)@example.com")
            let handles = Mutex<[Data]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    let handle = try f.store.userHandle(userID: user.id, candidate: bytes(32))
                    handles.withLock { $0.append(handle) }
                } catch {
                    failures.withLock { $0.append(String(describing: error)) }
                }
            }
            let got = handles.withLock { $0 }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            #expect(got.count == 2 && Set(got).count == 1, "user \(index): one handle")
            #expect(try got.first.map { try f.store.userID(forHandle: $0) } == user.id)
        }
    }

    static func challenges(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("challenge@example.com")
        let bob = try f.confirmedUser("challenge-other@example.com")

        let registration = try challenge(f, .registration, for: ann, at: 10)
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .authentication, userID: ann.id,
                                           now: f.at(11)) == nil, "another purpose")
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .reauthentication, userID: ann.id,
                                           now: f.at(11)) == nil, "another purpose")
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .registration, userID: bob.id,
                                           now: f.at(11)) == nil, "another user")
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .registration, userID: nil,
                                           now: f.at(11)) == nil, "no user, for a bound challenge")
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .registration, userID: ann.id,
                                           now: f.at(310)) == nil, "expired")
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .registration, userID: ann.id,
                                           now: f.at(12)) == registration.digest)
        #expect(try f.store.spendChallenge(id: registration.id, purpose: .registration, userID: ann.id,
                                           now: f.at(13)) == nil, "once")

        let signIn = try challenge(f, .authentication, for: nil, at: 20)
        #expect(try f.store.spendChallenge(id: signIn.id, purpose: .authentication, userID: ann.id,
                                           now: f.at(21)) == nil, "a user, for a challenge bound to none")
        #expect(try f.store.spendChallenge(id: signIn.id, purpose: .authentication, userID: nil,
                                           now: f.at(21)) == signIn.digest)
        #expect(try f.store.spendChallenge(id: signIn.id, purpose: .authentication, userID: nil,
                                           now: f.at(22)) == nil, "once")

        let reauthentication = try challenge(f, .reauthentication, for: bob, at: 30)
        #expect(try f.store.spendChallenge(id: reauthentication.id, purpose: .reauthentication, userID: bob.id,
                                           now: f.at(329)) == reauthentication.digest, "until its expiry")
        #expect(try f.store.spendChallenge(id: PasskeyChallengeID(), purpose: .authentication, userID: nil,
                                           now: f.at(30)) == nil, "unknown")

        // Racing spends of one challenge: one gets the digest.
        let raced = try challenge(f, .authentication, for: nil, at: 40)
        let spent = Mutex<[Data?]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                let digest = try f.store.spendChallenge(id: raced.id, purpose: .authentication, userID: nil,
                                                        now: f.at(41))
                spent.withLock { $0.append(digest) }
            } catch {
                failures.withLock { $0.append(String(describing: error)) }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(spent.withLock { $0 }.compactMap { $0 } == [raced.digest], "spent once")
    }

    static func storage(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("storage@example.com")
        let bob = try f.confirmedUser("storage-other@example.com")
        var phone = passkey(f, of: ann, at: 20, name: "Phone", signCount: UInt32.max, backupEligible: false)
        phone.transports = []
        phone.aaguid = bytes(16)
        phone.algorithm = .rs256
        let laptop = passkey(f, of: ann, at: 10, name: "Laptop")
        #expect(try f.store.addPasskey(phone))
        #expect(try f.store.addPasskey(laptop))
        let other = try added(f, of: bob, at: 5)

        #expect(try f.store.passkeys(userID: ann.id) == [laptop, phone], "oldest first, as stored")
        #expect(try f.store.passkeys(userID: bob.id) == [other])
        #expect(try f.store.passkeys(userID: UserID()).isEmpty)
        #expect(try f.store.passkey(credentialID: phone.credentialID) == phone)
        #expect(try f.store.passkey(credentialID: other.credentialID) == other, "whoever's it is")
        #expect(try f.store.passkey(credentialID: bytes(16)) == nil)
    }

    static func duplicates(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("duplicate@example.com")
        let bob = try f.confirmedUser("duplicate-other@example.com")
        let original = try added(f, of: ann, at: 10)

        let again = passkey(f, of: ann, at: 11, name: "Again", credentialID: original.credentialID)
        #expect(try !f.store.addPasskey(again), "the same user")
        let stolen = passkey(f, of: bob, at: 12, name: "Stolen", credentialID: original.credentialID)
        #expect(try !f.store.addPasskey(stolen), "another user")
        #expect(try f.store.passkeys(userID: ann.id) == [original])
        #expect(try f.store.passkeys(userID: bob.id).isEmpty, "nothing written")
        #expect(try f.store.passkey(credentialID: original.credentialID) == original)

        // Refused inside a unit of work, the transaction is not poisoned: its next write commits.
        let fresh = passkey(f, of: bob, at: 13, name: "Fresh")
        let (refused, stored) = try f.store.transaction { store in
            (try store.addPasskey(stolen), try store.addPasskey(fresh))
        }
        #expect(!refused && stored)
        #expect(try f.store.passkeys(userID: bob.id) == [fresh])
    }

    static func uses(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("use@example.com")
        let stored = try added(f, of: ann, at: 10, signCount: 5)
        #expect(try !f.store.recordPasskeyUse(id: stored.id, expectedSignCount: 4, signCount: 9, backedUp: true,
                                              at: f.at(20)), "a stale expected count")
        #expect(try f.store.passkeys(userID: ann.id) == [stored], "nothing written")
        #expect(try f.store.recordPasskeyUse(id: stored.id, expectedSignCount: 5, signCount: 9, backedUp: true,
                                             at: f.at(21)))
        var used = stored
        used.signCount = 9
        used.backedUp = true
        used.lastUsedAt = f.at(21)
        #expect(try f.store.passkey(credentialID: stored.credentialID) == used)
        #expect(try !f.store.recordPasskeyUse(id: stored.id, expectedSignCount: 5, signCount: 10, backedUp: true,
                                              at: f.at(22)), "the count it was judged against moved")
        #expect(try !f.store.recordPasskeyUse(id: PasskeyID(), expectedSignCount: 0, signCount: 1, backedUp: false,
                                              at: f.at(22)), "unknown")
        #expect(try f.store.recordPasskeyUse(id: stored.id, expectedSignCount: 9, signCount: UInt32.max,
                                             backedUp: false, at: f.at(23)), "the whole 32-bit range")
        #expect(try f.store.passkey(credentialID: stored.credentialID)?.signCount == UInt32.max)
    }

    static func changes(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("change@example.com")
        let bob = try f.confirmedUser("change-other@example.com")
        let handle = try f.store.userHandle(userID: ann.id, candidate: bytes(32))
        let first = try added(f, of: ann, at: 10, name: "First")
        let second = try added(f, of: ann, at: 11, name: "Second")
        let bobs = try added(f, of: bob, at: 12, name: "Bob's")

        #expect(try f.store.renamePasskey(id: first.id, userID: bob.id, name: "Mine now") == nil, "another user's")
        #expect(try f.store.renamePasskey(id: PasskeyID(), userID: ann.id, name: "Ghost") == nil)
        var renamed = first
        renamed.name = "Work laptop"
        #expect(try f.store.renamePasskey(id: first.id, userID: ann.id, name: "Work laptop") == renamed)
        #expect(try f.store.passkeys(userID: ann.id) == [renamed, second])

        #expect(try !f.store.removePasskey(id: second.id, userID: bob.id), "another user's")
        #expect(try f.store.passkeys(userID: ann.id).count == 2)
        #expect(try f.store.removePasskey(id: second.id, userID: ann.id))
        #expect(try !f.store.removePasskey(id: second.id, userID: ann.id), "gone")
        #expect(try f.store.passkeys(userID: ann.id) == [renamed])

        _ = try added(f, of: ann, at: 13, name: "Third")
        #expect(try f.store.removeAllPasskeys(userID: ann.id) == 2)
        #expect(try f.store.removeAllPasskeys(userID: ann.id) == 0)
        #expect(try f.store.passkeys(userID: ann.id).isEmpty)
        #expect(try f.store.passkeys(userID: bob.id) == [bobs], "others stay")
        #expect(try f.store.userHandle(userID: ann.id, candidate: bytes(32)) == handle, "the handle stays")
        #expect(try f.store.userID(forHandle: handle) == ann.id)
    }

    static func cascade(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("cascade@example.com")
        let bob = try f.confirmedUser("cascade-other@example.com")
        let handle = try f.store.userHandle(userID: ann.id, candidate: bytes(32))
        let bobsHandle = try f.store.userHandle(userID: bob.id, candidate: bytes(32))
        let anns = try added(f, of: ann, at: 10)
        let bobs = try added(f, of: bob, at: 11)
        let annsChallenge = try challenge(f, .registration, for: ann, at: 12)
        let bobsChallenge = try challenge(f, .reauthentication, for: bob, at: 12)

        #expect(try f.store.deleteAccount(AccountDeletion(
            userID: ann.id, verifiedPasswordHash: nil, notice: f.mail(.accountDeleted, to: ann.email))))
        #expect(try f.store.passkeys(userID: ann.id).isEmpty)
        #expect(try f.store.passkey(credentialID: anns.credentialID) == nil)
        #expect(try f.store.userID(forHandle: handle) == nil)
        #expect(try f.store.spendChallenge(id: annsChallenge.id, purpose: .registration, userID: ann.id,
                                           now: f.at(13)) == nil)

        #expect(try f.store.passkeys(userID: bob.id) == [bobs], "others stay")
        #expect(try f.store.userID(forHandle: bobsHandle) == bob.id)
        #expect(try f.store.spendChallenge(id: bobsChallenge.id, purpose: .reauthentication, userID: bob.id,
                                           now: f.at(13)) == bobsChallenge.digest)
    }

    static func sessions(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("passkey-session@example.com")
        let id = SessionID()
        let credentials = f.credentials(at: 10)
        let methods: [AuthenticationMethod] = [.softwareKey, .userVerification, .multipleFactors]
        try f.store.openSecondFactorSession(
            NewSession(id: id, userID: ann.id, createdAt: f.at(10), credentials: credentials,
                       passwordVersion: ann.passwordVersion),
            assurance: .aal2, methods: methods, device: DeviceTrust(tokenHash: f.digest(), expiresAt: f.at(86400)))
        let opened = try #require(try f.found(credentials))
        #expect(opened.id == id && opened.assurance == .aal2 && opened.methods == methods)

        let hash = f.digest()
        let elevated = try #require(try f.store.elevateSession(
            id: id, assurance: .aal2, methods: [.hardwareKey, .userVerification, .multipleFactors],
            proof: .hardwareKey, now: f.at(20), accessTokenHash: hash, accessExpiresAt: f.at(920),
            maxSessionAge: 90 * 86400))
        #expect(elevated.methods == [.hardwareKey, .userVerification, .multipleFactors])
        #expect(elevated.reauthenticatedWith == .hardwareKey)
        #expect(try f.store.findSession(accessTokenHash: hash)?.session == elevated)
        _ = try #require(try f.store.elevateSession(
            id: id, assurance: .aal2, methods: methods, proof: .softwareKey, now: f.at(30), accessTokenHash: f.digest(),
            accessExpiresAt: f.at(930), maxSessionAge: 90 * 86400))
    }
}
