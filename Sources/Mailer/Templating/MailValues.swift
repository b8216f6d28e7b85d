import AuthCore
import Foundation

/// A request's placeholder values, as plain text; absent ones are left out, so `{{#name}}` sections hide.
enum MailValues {
    static func values(
        for request: MailRequest, productName: String, supportAddress: String?, language: String,
        wording: LinkLifetimeWording
    ) -> [String: String] {
        var values = ["product": productName, "address": request.recipient, "lang": language]
        values["support"] = supportAddress
        if let link = request.deepLink {
            values["link"] = link.absoluteString
            // A lifetime without a link (a code alone) is `code_expiry`'s, never "this link expires".
            values["expiry"] = request.linkLifetime.map(wording.describe)
        }
        values["code"] = request.code.map(grouped)
        values["code_expiry"] = request.codeLifetime.map(wording.describe)
        values["other_address"] = request.otherAddress
        values["device"] = request.requestedBy
        values["item"] = request.itemName
        return values.filter { !HeaderText.sanitize($0.value).isEmpty }
    }

    /// `12345678` as `1234 5678`: easier to read and to type. The app accepts it with or without the space.
    static func grouped(_ code: String) -> String {
        guard code.count == 8 else { return code }
        return String(code.prefix(4)) + " " + String(code.suffix(4))
    }
}
