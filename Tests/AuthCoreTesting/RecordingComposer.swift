import AuthCore
import Foundation
import Synchronization

/// Renders a mail from its request verbatim (the link in both bodies), and remembers every request. Speaks
/// English, German and French, so the flows' choice of language shows in `requests` and `ComposedMail.language`.
public final class RecordingComposer: MailComposer, Sendable {
    private let log = Mutex<[MailRequest]>([])
    public let locales: [String]

    public init(locales: [String] = ["en", "de", "fr"]) {
        self.locales = locales
    }

    public var requests: [MailRequest] { log.withLock { $0 } }

    public func compose(_ request: MailRequest) -> ComposedMail {
        log.withLock { $0.append(request) }
        let link = request.deepLink?.absoluteString ?? "-"
        return ComposedMail(kind: request.kind, recipient: request.recipient, subject: request.kind.rawValue,
                            text: "link: \(link)", html: "<a href=\"\(link)\">open</a>", deepLink: request.deepLink,
                            language: request.locale.flatMap { locales.contains($0) ? $0 : nil } ?? locales[0])
    }
}
