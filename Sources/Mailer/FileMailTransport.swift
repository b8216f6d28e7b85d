import Foundation

/// Development transport: writes each message as an `.eml` file and prints one line with recipient, subject
/// and link, so a developer can follow a sign-up without a mail server.
///
/// It prints the raw link (and so the token) on purpose; never configure it in production.
public struct FileMailTransport: MailTransport {
    /// Where the `.eml` files go; created on first send.
    public let directory: URL
    private let printer: @Sendable (String) -> Void

    /// `printer` receives one line per message (defaults to standard output).
    public init(directory: URL, printer: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.directory = directory
        self.printer = printer
    }

    /// Writes `<message-id>.eml` (a resend overwrites the same file) and prints the console line.
    public func send(_ message: MailMessage) throws {
        let file = fileURL(for: message)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(EMLRenderer.render(message).utf8).write(to: file, options: .atomic)
        } catch {
            throw MailError.fileWrite(path: file.path, reason: String(describing: error))
        }
        let link = message.deepLink?.absoluteString ?? "(no link)"
        printer("mail to \(message.to.address): \(HeaderText.sanitize(message.subject)) | \(link) | \(file.path)")
    }

    /// The file a message is written to: its Message-ID with anything but `A-Za-z0-9.-_@` replaced.
    public func fileURL(for message: MailMessage) -> URL {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_@")
        let name = String(message.messageID.map { allowed.contains($0) ? $0 : "_" }.prefix(200))
        return directory.appendingPathComponent((name.isEmpty ? "message" : name) + ".eml")
    }
}
