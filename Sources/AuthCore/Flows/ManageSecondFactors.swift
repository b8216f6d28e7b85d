import Foundation

/// What activating a factor gives: the recovery codes (shown once) and the session's new access token, whose
/// `acr` is now `aal2`.
public struct SecondFactorActivation: Hashable, Sendable {
    public var recoveryCodes: [String]
    public var accessToken: String
    public var accessTokenExpiresAt: Date

    public init(recoveryCodes: [String], accessToken: String, accessTokenExpiresAt: Date) {
        self.recoveryCodes = recoveryCodes
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }
}

extension AuthService {
    /// How many recovery codes a set holds.
    static let recoveryCodeCount = 10

    /// `GET /v1/mfa`: the user's active factors and unspent recovery codes.
    public func secondFactorStatus(_ authenticated: AuthenticatedUser) throws -> SecondFactorStatus {
        try ports.store.secondFactorStatus(userID: authenticated.session.userID)
    }

    /// Begin a TOTP enrolment (`POST /v1/mfa/totp`, privileged): a pending factor with a new secret, returned
    /// once in base32 and as an otpauth URI. A newer enrolment replaces the pending one.
    /// - Throws: `reauthenticationRequired`, `invalidSession`.
    public func enrolTOTP(_ authenticated: AuthenticatedUser, name rawName: String?, ip: String?) throws -> TOTPEnrollment {
        let user = try requirePresence(authenticated, password: nil, ip: ip)
        let now = ports.clock.now()
        let factorID = FactorID()
        let secret = ports.secondFactors.makeTOTPSecret()
        let name = FactorName.cleaned(rawName)
        let factor = TOTPFactorRecord(
            id: factorID, userID: user.id, name: name,
            sealedSecret: try ports.secondFactors.seal(totpSecret: secret, userID: user.id, factorID: factorID),
            createdAt: now, expiresAt: now.addingTimeInterval(configuration.enrolmentTTL))
        try ports.store.storePendingFactor(factor, audit: event(.secondFactorEnrolmentStarted, user: user.id, ip: ip, detail: [
            "factor_id": factorID.description, "session_id": authenticated.session.id.description,
        ]))
        return TOTPEnrollment(
            factorID: factorID, secret: Base32.encode(secret),
            otpauthURI: TOTPPolicy.otpauthURI(issuer: configuration.mfaIssuer, account: user.email, secret: secret),
            expiresIn: Int(configuration.enrolmentTTL))
    }

    /// Activate a pending factor with a code from the authenticator (`POST /v1/mfa/totp/{id}/activate`). In one
    /// transaction: the factor is active with the code's step used, a new set of recovery codes replaces any old
    /// one, every other session of the user ends, this one is raised to `aal2` with a new access token (as if
    /// re-authenticated with the code), the notice is queued and audited. Wrong codes count on the pending factor
    /// (`codeAttempts` end it) and on the session's limit.
    /// - Throws: `factorNotFound`, `invalidMFACode`, `rateLimited`, `invalidSession`.
    public func activateTOTP(_ authenticated: AuthenticatedUser, factorID: FactorID, code rawCode: String, ip: String?)
        throws -> SecondFactorActivation
    {
        let session = authenticated.session
        try enforce(configuration.rateLimits.signInPerEmail, key: "mfa-activate:session:\(session.id)")
        guard let user = try ports.store.findUser(id: session.userID) else { throw AuthError.invalidSession }
        let now = ports.clock.now()
        let limit = configuration.codeAttempts
        guard let factor = try ports.store.pendingFactor(id: factorID, userID: user.id, now: now, attemptLimit: limit)
        else { throw AuthError.factorNotFound }
        let secret = try ports.secondFactors.openTOTPSecret(factor.sealedSecret, userID: user.id, factorID: factor.id)
        // Counted before the code is judged, by one conditional UPDATE: codes sent at once get no more tries.
        guard try ports.store.countActivationAttempt(factorID: factor.id, userID: user.id, now: now, attemptLimit: limit)
        else { throw AuthError.factorNotFound }
        guard let code = TOTPPolicy.normalized(rawCode), let step = matchingStep(code, secret: secret, after: -1, now: now)
        else {
            try ports.store.record(event(.secondFactorFailed, user: user.id, ip: ip, detail: [
                "reason": "wrong_code", "during": "activation", "factor_id": factor.id.description,
            ]))
            throw AuthError.invalidMFACode
        }
        let codes = (0..<Self.recoveryCodeCount).map { _ in ports.secondFactors.makeRecoveryCode() }
        let tokens = makeSessionTokens(now: AccessTokenClaims.wholeSeconds(now))
        let methods = Self.adding([.otp, .multipleFactors], to: session.methods)
        let elevated = try ports.store.transaction { store -> Session in
            guard try store.activateFactor(id: factor.id, userID: user.id, step: step, at: now, attemptLimit: limit) else {
                throw AuthError.factorNotFound
            }
            try store.replaceRecoveryCodes(
                userID: user.id, digests: codes.map { ports.secondFactors.digest(recoveryCode: $0, userID: user.id) }, at: now)
            let ended = try store.revokeAllSessions(userID: user.id, except: session.id, at: now)
            guard let elevated = try store.elevateSession(
                id: session.id, assurance: .aal2, methods: methods, proof: .otp, now: AccessTokenClaims.wholeSeconds(now),
                accessTokenHash: tokens.accessTokenHash, accessExpiresAt: tokens.accessExpiresAt,
                maxSessionAge: configuration.sessionMaxAge)
            else { throw AuthError.invalidSession }
            try store.enqueue(mail: secondFactorNotice(.secondFactorEnabled, to: user))
            try store.record(event(.secondFactorActivated, user: user.id, ip: ip, detail: [
                "factor_id": factor.id.description, "session_id": session.id.description,
                "revoked_sessions": String(ended),
            ]))
            return elevated
        }
        let issued = try issue(tokens, to: user, sessionID: session.id, session: elevated)
        return SecondFactorActivation(recoveryCodes: codes.map(RecoveryCodeText.format), accessToken: issued.accessToken,
                                      accessTokenExpiresAt: issued.accessTokenExpiresAt)
    }

    /// Replace the recovery codes with a new set (`POST /v1/mfa/recovery-codes`, privileged: with a second factor).
    /// - Throws: `reauthenticationRequired`, `mfaNotEnabled`.
    public func replaceRecoveryCodes(_ authenticated: AuthenticatedUser, ip: String?) throws -> [String] {
        let user = try requirePresence(authenticated, password: nil, ip: ip)
        guard user.hasSecondFactor else { throw AuthError.mfaNotEnabled }
        let codes = (0..<Self.recoveryCodeCount).map { _ in ports.secondFactors.makeRecoveryCode() }
        let now = ports.clock.now()
        try ports.store.transaction { store in
            try store.replaceRecoveryCodes(
                userID: user.id, digests: codes.map { ports.secondFactors.digest(recoveryCode: $0, userID: user.id) }, at: now)
            try store.record(event(.recoveryCodesReplaced, user: user.id, ip: ip, detail: [
                "session_id": authenticated.session.id.description,
            ]))
        }
        return codes.map(RecoveryCodeText.format)
    }

    /// Remove an active factor (`DELETE /v1/mfa/totp/{id}`, privileged: with a second factor). The last one
    /// takes the recovery codes with it. The user is mailed.
    /// - Throws: `reauthenticationRequired`, `factorNotFound`.
    public func removeTOTP(_ authenticated: AuthenticatedUser, factorID: FactorID, ip: String?) throws {
        let user = try requirePresence(authenticated, password: nil, ip: ip)
        try ports.store.transaction { store in
            guard let left = try store.removeFactor(id: factorID, userID: user.id) else { throw AuthError.factorNotFound }
            try store.enqueue(mail: secondFactorNotice(.secondFactorRemoved, to: user))
            try store.record(event(.secondFactorRemoved, user: user.id, ip: ip, detail: [
                "factor_id": factorID.description, "factors_left": String(left),
                "session_id": authenticated.session.id.description,
            ]))
        }
    }

    /// `methods` with `added` appended where missing, in order.
    static func adding(_ added: [AuthenticationMethod], to methods: [AuthenticationMethod]) -> [AuthenticationMethod] {
        methods + added.filter { !methods.contains($0) }
    }
}
