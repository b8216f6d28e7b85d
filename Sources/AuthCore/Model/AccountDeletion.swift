import Foundation

/// Everything an account deletion does, in one transaction (only while the hash is still
/// `verifiedPasswordHash`, when one is given; an operator gives none):
/// 1. queue `notice` to the address, marked to forget its recipient once sent;
/// 2. drop the account's own mail not sent yet (`ComposedMail.userID`: to its address, to an address it was
///    moving to, to an address it had before a change);
/// 3. forget the recipient of the account's own mail already sent, and the addresses in its own audit rows
///    (`email`, `old_email`, `new_email`); the rows themselves stay, with the user id;
/// 4. forget the sign-in failures and per-email limits of its current address, and its sessions' failures;
/// 5. delete the user, and with it (foreign keys) its tokens, sessions, refresh tokens and trusted devices.
///
/// Nothing else: an address the account once named (a change it asked for) may be someone else's, whose mail,
/// audit rows and limits a deletion must never touch.
public struct AccountDeletion: Hashable, Sendable {
    public var userID: UserID
    public var verifiedPasswordHash: String?
    public var notice: ComposedMail

    public init(userID: UserID, verifiedPasswordHash: String?, notice: ComposedMail) {
        self.userID = userID
        self.verifiedPasswordHash = verifiedPasswordHash
        self.notice = notice
    }
}
