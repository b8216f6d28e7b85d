import Foundation

/// What `POST /v1/passkeys/registration/options` answers: the challenge (stored only hashed) and what the app
/// passes to the platform's passkey API (`PublicKeyCredentialCreationOptions`).
public struct PasskeyCreationOptions: Hashable, Sendable {
    public var challengeID: PasskeyChallengeID
    /// 32 random bytes.
    public var challenge: Data
    public var rpID: String
    public var rpName: String
    /// The user's WebAuthn user handle: 32 random bytes, never the user's id or address.
    public var userHandle: Data
    public var userName: String
    public var algorithms: [PasskeyAlgorithm]
    /// Milliseconds, as WebAuthn counts them.
    public var timeout: Int
    /// The user's passkeys, so the platform does not register one authenticator twice.
    public var excludeCredentials: [PasskeyRecord]

    public init(challengeID: PasskeyChallengeID, challenge: Data, rpID: String, rpName: String, userHandle: Data,
                userName: String, algorithms: [PasskeyAlgorithm], timeout: Int, excludeCredentials: [PasskeyRecord])
    {
        self.challengeID = challengeID
        self.challenge = challenge
        self.rpID = rpID
        self.rpName = rpName
        self.userHandle = userHandle
        self.userName = userName
        self.algorithms = algorithms
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
    }
}

/// What `POST /v1/passkeys/authentication/options` answers (`PublicKeyCredentialRequestOptions`): no
/// `allowCredentials`, so nothing about any account is told and the platform offers its discoverable passkeys.
public struct PasskeyRequestOptions: Hashable, Sendable {
    public var challengeID: PasskeyChallengeID
    public var challenge: Data
    public var rpID: String
    /// Milliseconds.
    public var timeout: Int

    public init(challengeID: PasskeyChallengeID, challenge: Data, rpID: String, timeout: Int) {
        self.challengeID = challengeID
        self.challenge = challenge
        self.rpID = rpID
        self.timeout = timeout
    }
}
