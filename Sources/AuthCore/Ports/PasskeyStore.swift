import Foundation

/// The `passkeys`, `passkey_user_handles` and `passkey_challenges` tables. Each method is one statement (one
/// transaction); the flows join several in `UnitOfWork.transaction` where a passkey's use opens a session.
public protocol PasskeyStore: Sendable {
    /// The user's WebAuthn user handle, made from `candidate` (32 random bytes) the first time and the same ever
    /// after (`INSERT … ON CONFLICT DO NOTHING`, then read: two racing calls agree).
    func userHandle(userID: UserID, candidate: Data) throws -> Data

    /// The user whose handle this is, if any.
    func userID(forHandle handle: Data) throws -> UserID?

    /// Stores a challenge (only its digest).
    func storeChallenge(_ challenge: NewPasskeyChallenge) throws

    /// Spends the challenge `id` if it is unused, unexpired at `now`, of `purpose` and bound to `userID` (nil: bound
    /// to no user): one conditional UPDATE, so a challenge is spent once, whoever asks at the same time.
    /// - Returns: the stored digest of the challenge, nil when this call did not spend it.
    func spendChallenge(id: PasskeyChallengeID, purpose: PasskeyChallengePurpose, userID: UserID?, now: Date) throws
        -> Data?

    /// The user's passkeys, oldest first.
    func passkeys(userID: UserID) throws -> [PasskeyRecord]

    /// The passkey with this WebAuthn credential id, whoever's it is.
    func passkey(credentialID: Data) throws -> PasskeyRecord?

    /// Stores a new passkey; false (nothing written) when its credential id is already registered, to any user.
    func addPasskey(_ passkey: PasskeyRecord) throws -> Bool

    /// Records a use of the passkey: its sign count becomes `signCount` and its backup state `backedUp`, at `at`,
    /// only while its stored count is still `expectedSignCount` (one conditional UPDATE: of two racing uses with
    /// one counter value, one wins).
    /// - Returns: whether this call recorded it.
    func recordPasskeyUse(id: PasskeyID, expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date)
        throws -> Bool

    /// Renames the user's passkey `id`.
    /// - Returns: the passkey as it is now, nil when the user has no such passkey.
    func renamePasskey(id: PasskeyID, userID: UserID, name: String) throws -> PasskeyRecord?

    /// Deletes the user's passkey `id`.
    /// - Returns: whether there was one.
    func removePasskey(id: PasskeyID, userID: UserID) throws -> Bool

    /// Deletes every passkey of the user (the user handle stays: a new passkey keeps the account's handle).
    /// - Returns: how many there were.
    func removeAllPasskeys(userID: UserID) throws -> Int
}
