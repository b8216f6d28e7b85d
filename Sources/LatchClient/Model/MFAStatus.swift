/// The signed-in user's second factor, as `LatchClient.mfaStatus()` reads it (`GET /v1/mfa`).
public struct MFAStatus: Hashable, Sendable, Codable {
    /// The active factors, oldest first; an enrolment not activated yet is not among them.
    public let factors: [MFAFactor]
    /// How many of the recovery codes are still unused; when few are left, offer new ones
    /// (`regenerateRecoveryCodes()`).
    public let recoveryCodesRemaining: Int

    public init(factors: [MFAFactor], recoveryCodesRemaining: Int) {
        self.factors = factors
        self.recoveryCodesRemaining = recoveryCodesRemaining
    }

    /// Whether the account has a second factor: sign-ins then ask for it, and privileged changes need its proof.
    public var isEnabled: Bool { !factors.isEmpty }

    enum CodingKeys: String, CodingKey {
        case factors
        case recoveryCodesRemaining = "recovery_codes_remaining"
    }
}

extension MFAStatus: APIResponse {}
