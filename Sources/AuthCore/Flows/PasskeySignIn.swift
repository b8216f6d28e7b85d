import Foundation

extension AuthService {
    /// The options of a passkey ceremony (`POST /v1/passkeys/authentication/options`). Without a session: a sign-in
    /// challenge bound to no one, with no `allowCredentials`, so no address is asked and none can be enumerated.
    /// With one: a re-authentication challenge bound to the session's user. Each stores a row, so the per-address
    /// sign-in limit applies.
    /// - Throws: `rateLimited`.
    public func passkeyAuthenticationOptions(for authenticated: AuthenticatedUser?, ip: String?) throws
        -> PasskeyRequestOptions
    {
        try enforcePerIP(flow: "passkey", configuration.rateLimits.signInPerIP, ip: ip)
        let purpose: PasskeyChallengePurpose = authenticated == nil ? .authentication : .reauthentication
        let (id, challenge) = try storePasskeyChallenge(purpose, userID: authenticated?.session.userID)
        return PasskeyRequestOptions(challengeID: id, challenge: challenge, rpID: configuration.passkeys.rpID,
                                     timeout: passkeyTimeout)
    }

    /// Signs in with a passkey (`POST /v1/passkeys/authentication/verify`). The challenge is spent first; the
    /// credential must be registered, its `userHandle` its owner's, every WebAuthn check must pass, and its counter
    /// must grow. A passkey with user verification is two factors (possession and the biometric or PIN that
    /// unlocked it): the session is `aal2`, and a user with TOTP is not asked for a code. The counter, the session
    /// and the audit row are written in one transaction.
    /// - Throws: `invalidPasskeyChallenge`, `passkeyRejected`, `userDisabled`, `emailNotConfirmed`, `rateLimited`.
    public func signInWithPasskey(
        challengeID: PasskeyChallengeID, credential: PasskeyAssertionCredential, ip: String?, userAgent: String?
    ) throws -> IssuedSession {
        try enforcePerIP(flow: "signin", configuration.rateLimits.signInPerIP, ip: ip)
        let now = ports.clock.now()
        guard let digest = try ports.store.spendChallenge(id: challengeID, purpose: .authentication, userID: nil,
                                                          now: now)
        else { throw AuthError.invalidPasskeyChallenge }
        let (passkey, user, assertion) = try verifiedAssertion(credential, digest: digest, of: nil, ceremony: "signin",
                                                               ip: ip)
        if user.isDisabled { throw AuthError.userDisabled }
        if !user.isConfirmed { throw AuthError.emailNotConfirmed }

        let tokens = makeSessionTokens(now: now)
        let sessionID = SessionID()
        let deviceToken = ports.tokenGenerator.makeToken()
        let methods = [passkey.method, .userVerification, .multipleFactors]
        let session = NewSession(id: sessionID, userID: user.id, createdAt: now,
                                 credentials: tokens.credentials(ip: ip, userAgent: userAgent),
                                 passwordVersion: user.passwordVersion)
        try ports.store.transaction { store in
            guard try store.recordPasskeyUse(id: passkey.id, expectedSignCount: passkey.signCount,
                                             signCount: assertion.signCount, backedUp: assertion.backedUp, at: now)
            else { throw AuthError.passkeyRejected }
            try store.openSecondFactorSession(
                session, assurance: .aal2, methods: methods,
                device: DeviceTrust(tokenHash: ports.tokenGenerator.digest(deviceToken),
                                    expiresAt: now.addingTimeInterval(configuration.deviceTrustTTL)))
            try store.record(event(.passkeySignInSucceeded, user: user.id, ip: ip, detail: [
                "session_id": sessionID.description, "passkey_id": passkey.id.description,
            ]))
        }
        return try issue(tokens, to: user, sessionID: sessionID, deviceToken: deviceToken, assurance: .aal2,
                         methods: methods)
    }

    /// The checks every assertion passes, whatever it proves: the credential is registered (to `owner`, when
    /// given), `userHandle` names its owner, the verifier's WebAuthn checks, the backup eligibility it registered
    /// with, and the counter rule. Each refusal is audited; a counter that did not grow is also mailed to the owner.
    /// - Returns: the passkey as stored, its user and what the assertion says now (not yet recorded).
    func verifiedAssertion(
        _ credential: PasskeyAssertionCredential, digest: Data, of owner: UserID?, ceremony: String, ip: String?
    ) throws -> (PasskeyRecord, UserRecord, VerifiedPasskeyAssertion) {
        guard let passkey = try ports.store.passkey(credentialID: credential.rawID),
              owner == nil || passkey.userID == owner,
              let handle = credential.userHandle,
              try ports.store.userID(forHandle: handle) == passkey.userID,
              let user = try ports.store.findUser(id: passkey.userID)
        else { throw try passkeyFailed(.unknownCredential, user: owner, ceremony: ceremony, ip: ip) }
        let assertion: VerifiedPasskeyAssertion
        do {
            assertion = try ports.passkeys.verifyAssertion(
                credential, publicKey: passkey.publicKey, algorithm: passkey.algorithm,
                expecting: passkeyExpectation(digest))
        } catch {
            throw try passkeyFailed(error.reason, user: user.id, ceremony: ceremony, ip: ip)
        }
        // BE is fixed when a credential is made (WebAuthn L3 §6.1.3): a change is not the same authenticator.
        guard assertion.backupEligible == passkey.backupEligible else {
            throw try passkeyFailed(.backupState, user: user.id, ceremony: ceremony, ip: ip)
        }
        guard PasskeySignCount.isAcceptable(stored: passkey.signCount, received: assertion.signCount) else {
            // A refused use like any other (passkey_failed), and a security event of its own with a notice.
            try ports.store.transaction { store in
                try store.enqueue(mail: passkeyNotice(.passkeyCloneSuspected, passkey: passkey, to: user))
                try store.record(passkeyFailureEvent(.signCount, user: user.id, ceremony: ceremony, ip: ip))
                try store.record(event(.passkeyCloneSuspected, user: user.id, ip: ip, detail: [
                    "passkey_id": passkey.id.description, "ceremony": ceremony,
                    "stored_count": String(passkey.signCount), "received_count": String(assertion.signCount),
                ]))
            }
            throw AuthError.passkeyRejected
        }
        return (passkey, user, assertion)
    }
}
