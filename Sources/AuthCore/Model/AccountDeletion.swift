import Foundation

/// Everything an account deletion does, in one transaction (only while the hash is still
/// `verifiedPasswordHash`, when one is given; an operator gives none):
/// 1. queue `notice` to the address, marked to forget its recipient once sent;
/// 2. drop the account's mail not sent yet (to its address, to addresses it was moving to, and to addresses its
///    audit rows name: the ones it had before a change);
/// 3. forget the address in mail already sent (the recipient) and in the audit log (`email` details of its rows,
///    and of failed sign-ins that named it); the audit rows themselves stay, with the user id;
/// 4. forget the address's sign-in failures and per-email limits;
/// 5. delete the user, and with it (foreign keys) its tokens, sessions, refresh tokens and trusted devices.
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
