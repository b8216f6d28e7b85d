import Foundation

/// Reads a refusal, `{"error":{"code","message","reason"?}}` with `Retry-After` on 429 and 503 and a
/// `WWW-Authenticate` challenge on `reauthentication_required`, into a `LatchError`. The one place where the API's
/// codes become cases; statuses are not looked at when a code is there.
enum ErrorResponse {
    private struct Body: Decodable {
        struct Detail: Decodable {
            let code: String
            let message: String?
            let reason: String?
        }

        let error: Detail
    }

    static func error(from response: TransportResponse) -> LatchError {
        guard let body = try? JSONDecoder().decode(Body.self, from: response.body) else {
            return .invalidResponse("HTTP \(response.status) without a Latch error body")
        }
        let retryAfter = response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let challenge = response.header("WWW-Authenticate")
        return error(code: body.error.code, message: body.error.message ?? "", reason: body.error.reason,
                     retryAfter: retryAfter, maxAge: maxAge(challenge: challenge),
                     acrValues: acrValues(challenge: challenge))
    }

    static func error(code: String, message: String, reason: String?, retryAfter: Int?, maxAge: Int? = nil,
                      acrValues: String? = nil) -> LatchError {
        switch code {
        case "invalid_email": .invalidEmail
        case "weak_password": .weakPassword(reason: reason.flatMap(WeakPasswordReason.init(rawValue:)))
        case "invalid_credentials": .invalidCredentials
        case "email_not_confirmed": .emailNotConfirmed
        case "user_disabled": .userDisabled
        case "invalid_token": .invalidToken
        case "token_expired": .tokenExpired
        case "token_used": .tokenUsed
        case "token_superseded": .tokenSuperseded
        case "already_confirmed": .alreadyConfirmed
        case "invalid_code": .invalidCode
        case "email_taken": .emailTaken
        case "email_unchanged": .emailUnchanged
        case "session_not_found": .sessionNotFound
        case "unsupported_locale": .unsupportedLocale
        case "reauthentication_required": .reauthenticationRequired(maxAge: maxAge, acrValues: acrValues)
        case "invalid_mfa_ticket": .invalidMFATicket
        case "invalid_mfa_code": .invalidMFACode
        case "mfa_required": .mfaRequired
        case "mfa_not_enabled": .mfaNotEnabled
        case "factor_not_found": .factorNotFound
        case "invalid_passkey_challenge": .invalidPasskeyChallenge
        case "passkey_rejected": .passkeyRejected
        case "passkey_not_found": .passkeyNotFound
        case "last_sign_in_method": .lastSignInMethod
        case "invalid_nonce": .invalidNonce
        case "invalid_id_token": .invalidIDToken
        case "provider_email_unverified": .providerEmailUnverified
        case "provider_unavailable": .providerUnavailable(retryAfter: retryAfter)
        case "identity_not_found": .identityNotFound
        case "rate_limited": .rateLimited(retryAfter: retryAfter)
        case "invalid_session": .invalidSession
        case "session_expired": .sessionExpired
        case "refresh_token_reused": .refreshTokenReused
        case "invalid_request": .invalidRequest(message: message)
        case "invalid_json", "payload_too_large", "unsupported_media_type", "missing_token", "not_found",
             "method_not_allowed", "bad_request", "uri_too_long", "header_fields_too_large":
            .rejectedRequest(code: code)
        case "service_unavailable", "not_ready", "shutting_down": .serviceUnavailable(retryAfter: retryAfter)
        case "overloaded": .overloaded(retryAfter: retryAfter)
        default: .unknownCode(code: code, message: message)
        }
    }

    /// `max_age` of a Bearer challenge (RFC 9470 §3: `Bearer error="insufficient_user_authentication",
    /// max_age=600`), as a token or a quoted string; nil when there is none or it is not a count of seconds.
    static func maxAge(challenge: String?) -> Int? {
        guard let value = bearerParameter("max_age", of: challenge) else { return nil }
        guard let seconds = Int(value), seconds >= 0 else { return nil }
        return seconds
    }

    /// `acr_values` of a Bearer challenge (RFC 9470 §3: `…, acr_values="aal2", max_age=600`): the authentication
    /// context the call needs, a space-separated list, as the server wrote it; nil when there is none or it is empty.
    static func acrValues(challenge: String?) -> String? {
        guard let value = bearerParameter("acr_values", of: challenge) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The first value of the parameter `name` (case-insensitive) of a Bearer challenge; nil for another scheme.
    private static func bearerParameter(_ name: String, of challenge: String?) -> String? {
        guard let challenge else { return nil }
        let text = challenge.trimmingCharacters(in: .whitespaces)
        guard let schemeEnd = text.firstIndex(where: \.isWhitespace),
              text[..<schemeEnd].caseInsensitiveCompare("Bearer") == .orderedSame else { return nil }
        return authParameters(text[schemeEnd...]).first { $0.name.lowercased() == name }?.value
    }

    /// The `name=value` pairs of a challenge's parameter list (RFC 9110 §11.2), values unquoted; it stops at
    /// the first thing that is not one.
    private static func authParameters(_ list: Substring) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        var rest = list
        func skip(_ characters: Set<Character>) { rest = rest.drop(while: characters.contains) }
        while true {
            skip([" ", "\t", ","])
            let name = rest.prefix { $0 != "=" && $0 != "," && !$0.isWhitespace }
            guard !name.isEmpty else { return parameters }
            rest = rest.dropFirst(name.count)
            skip([" ", "\t"])
            guard rest.first == "=" else { return parameters }
            rest = rest.dropFirst()
            skip([" ", "\t"])
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.popFirst() {
                    if character == "\"" { closed = true; break }
                    let escaped = character == "\\" ? rest.popFirst() : nil
                    value.append(escaped ?? character)
                }
                guard closed else { return parameters }
            } else {
                value = String(rest.prefix { $0 != "," && !$0.isWhitespace })
                rest = rest.dropFirst(value.count)
            }
            parameters.append((String(name), value))
        }
    }
}
