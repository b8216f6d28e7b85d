/// Delivers one message. Implementations throw `MailError`; each call is independent and may block.
public protocol MailTransport: Sendable {
    func send(_ message: MailMessage) throws
}
