import Foundation

extension AuthService {
    /// The options of a passkey registration (`POST /v1/passkeys/registration/options`): privileged (a recent
    /// re-authentication, with the second factor once there is one), since a passkey signs in alone. The challenge
    /// is bound to the user and stored hashed; the user handle is the account's random one, made on first use.
    /// - Throws: `reauthenticationRequired`, `invalidSession`.
    public func passkeyRegistrationOptions(_ authenticated: AuthenticatedUser, ip: String?) throws
        -> PasskeyCreationOptions
    {
        let user = try requirePresence(authenticated, password: nil, ip: ip)
        let handle = try ports.store.userHandle(userID: user.id, candidate: ports.tokenGenerator.randomBytes())
        let (id, challenge) = try storePasskeyChallenge(.registration, userID: user.id)
        let passkeys = configuration.passkeys
        return PasskeyCreationOptions(
            challengeID: id, challenge: challenge, rpID: passkeys.rpID, rpName: passkeys.rpName, userHandle: handle,
            userName: user.email, algorithms: PasskeyAlgorithm.allCases, timeout: passkeyTimeout,
            excludeCredentials: try ports.store.passkeys(userID: user.id))
    }

    /// Registers the passkey a platform made for `registrationOptions`' challenge (`POST
    /// /v1/passkeys/registration/verify`): the challenge is spent first (one try per challenge), then every
    /// WebAuthn check runs; the passkey, its notice mail and audit row are written together.
    /// - Throws: `invalidPasskeyChallenge`, `passkeyRejected`, `invalidSession`.
    public func registerPasskey(
        _ authenticated: AuthenticatedUser, challengeID: PasskeyChallengeID, credential: PasskeyRegistrationCredential,
        name rawName: String?, ip: String?
    ) throws -> PasskeyRecord {
        let userID = authenticated.session.userID
        let now = ports.clock.now()
        guard let digest = try ports.store.spendChallenge(id: challengeID, purpose: .registration, userID: userID,
                                                          now: now)
        else { throw AuthError.invalidPasskeyChallenge }
        guard let user = try ports.store.findUser(id: userID) else { throw AuthError.invalidSession }
        let verified: VerifiedPasskeyRegistration
        do {
            verified = try ports.passkeys.verifyRegistration(credential, expecting: passkeyExpectation(digest))
        } catch {
            throw try passkeyFailed(error.reason, user: user.id, ceremony: "registration", ip: ip)
        }
        let passkey = PasskeyRecord(
            userID: user.id, credentialID: verified.credentialID, publicKey: verified.publicKey,
            algorithm: verified.algorithm, signCount: verified.signCount, backupEligible: verified.backupEligible,
            backedUp: verified.backedUp, transports: Self.knownTransports(credential.transports),
            aaguid: verified.aaguid, name: FactorName.cleaned(rawName, fallback: "Passkey"), createdAt: now)
        let added = try ports.store.transaction { store -> Bool in
            guard try store.addPasskey(passkey) else { return false }
            try store.enqueue(mail: passkeyNotice(.passkeyAdded, passkey: passkey, to: user))
            try store.record(event(.passkeyAdded, user: user.id, ip: ip, detail: [
                "passkey_id": passkey.id.description, "algorithm": String(passkey.algorithm.rawValue),
                "backup_eligible": String(passkey.backupEligible), "attestation": verified.attestationFormat,
            ]))
            return true
        }
        // A credential id registered already (to this user or another) is never taken over.
        guard added else { throw try passkeyFailed(.credentialID, user: user.id, ceremony: "registration", ip: ip) }
        return passkey
    }

    /// The signed-in user's passkeys (`GET /v1/passkeys`), oldest first.
    public func passkeys(_ authenticated: AuthenticatedUser) throws -> [PasskeyRecord] {
        try ports.store.passkeys(userID: authenticated.session.userID)
    }

    /// Renames one of the user's passkeys (`PATCH /v1/passkeys/{id}`); the name is cleaned as factors' are.
    /// - Throws: `passkeyNotFound`.
    public func renamePasskey(_ authenticated: AuthenticatedUser, id: PasskeyID, name rawName: String, ip: String?)
        throws -> PasskeyRecord
    {
        let userID = authenticated.session.userID
        return try ports.store.transaction { store in
            guard let renamed = try store.renamePasskey(id: id, userID: userID,
                                                        name: FactorName.cleaned(rawName, fallback: "Passkey"))
            else { throw AuthError.passkeyNotFound }
            try store.record(event(.passkeyRenamed, user: userID, ip: ip, detail: ["passkey_id": id.description]))
            return renamed
        }
    }

    /// Removes one of the user's passkeys (`DELETE /v1/passkeys/{id}`): privileged, mailed and audited. The
    /// account's last way to sign in is kept: the last passkey of an account without a password or a provider
    /// identity, where mailed sign-in links are off.
    /// - Throws: `reauthenticationRequired`, `passkeyNotFound`, `lastSignInMethod`.
    public func removePasskey(_ authenticated: AuthenticatedUser, id: PasskeyID, ip: String?) throws {
        let user = try requirePresence(authenticated, password: nil, ip: ip)
        try ports.store.transaction { store in
            guard let passkey = try store.passkeys(userID: user.id).first(where: { $0.id == id }) else {
                throw AuthError.passkeyNotFound
            }
            guard try store.removePasskey(id: id, userID: user.id) else { throw AuthError.passkeyNotFound }
            if try !hasOtherWayIn(user, in: store) { throw AuthError.lastSignInMethod }
            try store.enqueue(mail: passkeyNotice(.passkeyRemoved, passkey: passkey, to: user))
            try store.record(event(.passkeyRemoved, user: user.id, ip: ip, detail: ["passkey_id": id.description]))
        }
    }

    // MARK: - Shared by the ceremonies

    /// Milliseconds a ceremony may take: the challenge's lifetime.
    var passkeyTimeout: Int { Int(configuration.passkeys.challengeTTL * 1000) }

    /// A new challenge of `purpose`, stored as its SHA-256.
    func storePasskeyChallenge(_ purpose: PasskeyChallengePurpose, userID: UserID?) throws
        -> (PasskeyChallengeID, Data)
    {
        let now = ports.clock.now()
        let challenge = ports.tokenGenerator.randomBytes()
        let stored = NewPasskeyChallenge(
            purpose: purpose, userID: userID, digest: ports.tokenGenerator.digest(bytes: challenge), createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.passkeys.challengeTTL))
        try ports.store.storeChallenge(stored)
        return (stored.id, challenge)
    }

    func passkeyExpectation(_ challengeDigest: Data) -> PasskeyExpectation {
        PasskeyExpectation(challengeDigest: challengeDigest, rpID: configuration.passkeys.rpID,
                           origins: configuration.passkeys.origins)
    }

    /// Audits a refused ceremony and returns the error the client gets (the reason is never told).
    func passkeyFailed(_ reason: PasskeyRejection.Reason, user: UserID?, ceremony: String, ip: String?) throws
        -> AuthError
    {
        try ports.store.record(passkeyFailureEvent(reason, user: user, ceremony: ceremony, ip: ip))
        return .passkeyRejected
    }

    /// The `passkey_failed` row: which WebAuthn check refused which ceremony (the client only sees
    /// `passkey_rejected`).
    func passkeyFailureEvent(_ reason: PasskeyRejection.Reason, user: UserID?, ceremony: String, ip: String?)
        -> AuditEvent
    {
        event(.passkeyFailed, user: user, ip: ip, detail: ["reason": reason.rawValue, "ceremony": ceremony])
    }

    func passkeyNotice(_ kind: MailKind, passkey: PasskeyRecord, to user: UserRecord) -> ComposedMail {
        notice(MailRequest(kind: kind, recipient: user.email, itemName: passkey.name), of: user)
    }

    /// The `AuthenticatorTransport` values WebAuthn L3 defines; anything else a client sends is dropped.
    static func knownTransports(_ transports: [String]) -> [String] {
        let known: Set<String> = ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"]
        var seen = Set<String>()
        return transports.filter { known.contains($0) && seen.insert($0).inserted }
    }
}
