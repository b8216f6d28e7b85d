import Foundation
// For the binding's SHA-256 and base64url, which SHA256Tests checks against FIPS 180-4 and Python's hashlib.
@testable import LatchClient

/// Sign-in by mail as latchd does it: a mail (link and code) per request to the account's address, at most one a
/// minute (a request in between mails nothing: the earlier mail still works), each newer one superseding the
/// ones before; redeemable for 15 minutes, once, only with the secret whose SHA-256 the request carried.
extension FakeLatchServer {
    struct SignInMail {
        let email: String
        let binding: String
        let token: String
        let code: String
        let sentAt: Date
        var superseded = false
        var used = false
    }

    /// How long a sign-in mail works, as latchd's default.
    static let signInMailLifetime: TimeInterval = 15 * 60

    /// The mails sent, oldest first.
    var signInMails: [SignInMail] { state.withLock { $0.signInMails } }

    func requestEmailSignIn(_ fields: [String: Any]) -> TransportResponse {
        if let refusal = Self.strict(fields, allowed: ["email", "binding"], required: ["email", "binding"]) {
            return refusal
        }
        guard let email = fields["email"] as? String, email.contains("@") else {
            return Self.error(422, "invalid_email")
        }
        guard let binding = fields["binding"] as? String, binding.count == 43,
              Self.decodeBase64URL(binding)?.count == 32 else { return Self.error(422, "invalid_request") }
        let now = clock.now
        state.withLock { state in
            guard email.caseInsensitiveCompare(state.email) == .orderedSame else { return }  // no account: no mail
            let earlier = state.signInMails.indices.filter {
                state.signInMails[$0].email.caseInsensitiveCompare(email) == .orderedSame
            }
            if let last = earlier.last, now.timeIntervalSince(state.signInMails[last].sentAt) < 60 { return }
            for index in earlier { state.signInMails[index].superseded = true }
            let number = state.signInMails.count + 1
            state.signInMails.append(SignInMail(
                email: email, binding: binding, token: "signin-token-\(number)",
                code: String(31_415_900 + number), sentAt: now))
        }
        return json(202, ["status": "signin_sent"])
    }

    func verifyEmailSignIn(_ fields: [String: Any]) -> TransportResponse {
        let keys = Set(fields.keys)
        guard keys == ["token", "binding_secret"] || keys == ["email", "code", "binding_secret"],
              Self.strict(fields, allowed: keys, required: keys) == nil,
              let secret = fields["binding_secret"] as? String, secret.count == 43
        else { return Self.error(422, "invalid_request") }
        let presented = Self.decodeBase64URL(secret).map(EmailSignInBinding.binding(for:))
        let now = clock.now
        let refusal: TransportResponse? = state.withLock { state in
            if let token = fields["token"] as? String {
                guard let index = state.signInMails.firstIndex(where: { $0.token == token }) else {
                    return Self.error(400, "invalid_token")
                }
                let mail = state.signInMails[index]
                if mail.used { return Self.error(409, "token_used") }
                if mail.superseded { return Self.error(409, "token_superseded") }
                if now.timeIntervalSince(mail.sentAt) >= Self.signInMailLifetime {
                    return Self.error(400, "token_expired")
                }
                guard presented == mail.binding else { return Self.error(400, "invalid_token") }
                state.signInMails[index].used = true
                return nil
            }
            let email = (fields["email"] as? String ?? "").lowercased()
            guard let index = state.signInMails.firstIndex(where: {
                $0.email.lowercased() == email && $0.code == fields["code"] as? String
            }) else { return Self.error(400, "invalid_code") }
            let mail = state.signInMails[index]
            if mail.used { return Self.error(409, "token_used") }
            guard !mail.superseded, now.timeIntervalSince(mail.sentAt) < Self.signInMailLifetime,
                  presented == mail.binding else { return Self.error(400, "invalid_code") }
            state.signInMails[index].used = true
            return nil
        }
        return refusal ?? firstFactorPassed()
    }

    static func decodeBase64URL(_ text: String) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
