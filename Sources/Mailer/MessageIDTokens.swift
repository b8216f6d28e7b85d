/// The opaque left-hand side of an outbox row's Message-ID.
///
/// The row id itself must not appear: it is a counter shared by every account, so the gap between the ids of two
/// of one's own mails would tell how many mails were queued for others in between (a reset requested for someone
/// else's address, say). A port because the key lives outside Mailer: latchd implements it as an HMAC of the row
/// id under a key derived from the server secret (`HMACMessageIDTokens` in LatchApp).
public protocol MessageIDTokens: Sendable {
    /// A pure function of `outboxID` and the key: the same row gets the same token on every attempt and from every
    /// daemon sharing the secret, so a resend after a crash is recognisably the same mail. Different rows get
    /// different tokens, and nothing of the id (its value, its order, its distance to another) can be read from
    /// one. Only `A-Za-z0-9-_` survive in the Message-ID (`MessageID.make`).
    func token(outboxID: Int64) -> String
}
