import AuthCore
import Foundation

/// Made-up requests of each kind, for checking templates at load and for `latchctl mail preview`.
public enum MailSamples {
    /// `full`: every value the kind can have (`MailPlaceholders`); otherwise only the recipient, so every
    /// `{{#…}}` section is hidden and every `{{^…}}` shown.
    public static func request(_ kind: MailKind, full: Bool = true, locale: String? = nil) -> MailRequest {
        var request = MailRequest(kind: kind, recipient: "ann@example.com", locale: locale)
        guard full else { return request }
        let names = Set(MailPlaceholders.names(for: kind))
        if names.contains("link") {
            request.deepLink = URL(string: "https://links.example.com/\(kind.rawValue)?token=sample")
            request.linkLifetime = 86_400
        }
        if names.contains("code") { request.code = "12345678" }
        if names.contains("code_expiry") { request.codeLifetime = 600 }
        if names.contains("other_address") { request.otherAddress = "ann.new@example.com" }
        if names.contains("device") { request.requestedBy = "Safari on iPhone" }
        if names.contains("item") {
            request.itemName = kind == .identityLinked || kind == .identityRemoved ? "Apple" : "iPhone"
        }
        return request
    }
}
