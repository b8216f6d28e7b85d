import Foundation

extension AuthService {
    /// Checks a typed second factor of `userID` inside `store`'s transaction and spends it there: a TOTP code is
    /// compared with every active factor's codes of the steps T-1…T+1 that are newer than the factor's last
    /// accepted step, and accepted by `acceptStep`'s conditional UPDATE; a recovery code is spent by
    /// `spendRecoveryCode`'s. Either way a code works once, whoever else presents it at the same time.
    /// - Returns: whether the proof held (and was spent).
    func spendSecondFactor(_ proof: SecondFactorProof, of userID: UserID, in store: any AuthStore) throws -> Bool {
        let now = ports.clock.now()
        switch proof {
        case .totp(let typed):
            guard let code = TOTPPolicy.normalized(typed) else { return false }
            for factor in try store.activeTOTPFactors(userID: userID) {
                let secret = try ports.secondFactors.openTOTPSecret(factor.sealedSecret, userID: userID, factorID: factor.id)
                if let step = matchingStep(code, secret: secret, after: factor.lastStep, now: now) {
                    return try store.acceptStep(factorID: factor.id, step: step, at: now)
                }
            }
            return false
        case .recoveryCode(let typed):
            guard let code = RecoveryCodeText.normalized(typed) else { return false }
            return try store.spendRecoveryCode(
                userID: userID, digest: ports.secondFactors.digest(recoveryCode: code, userID: userID), at: now)
        }
    }

    /// The newest step of T-1…T+1 after `lastStep` whose code is `code`. Every candidate is computed and
    /// compared in full, so the time taken does not say which step (if any) matched.
    func matchingStep(_ code: String, secret: Data, after lastStep: Int64, now: Date) -> Int64? {
        var matched: Int64?
        for step in TOTPPolicy.candidateSteps(at: now) {
            let equal = Self.constantTimeEqual(ports.secondFactors.totpCode(secret: secret, step: step), code)
            if equal, step > lastStep, matched == nil { matched = step }
        }
        return matched
    }

    /// Equal strings of equal length, without an early exit.
    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The second-factor notice of `kind` to the user's address.
    func secondFactorNotice(_ kind: MailKind, to user: UserRecord) -> ComposedMail {
        makeNotice(kind, to: user)
    }
}
