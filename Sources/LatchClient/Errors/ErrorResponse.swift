import Foundation

/// Reads a refusal, `{"error":{"code","message","reason"?}}` with `Retry-After` on 429 and 503, into a
/// `LatchError`. The one place where the API's codes become cases; statuses are not looked at when a code is there.
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
        return error(code: body.error.code, message: body.error.message ?? "", reason: body.error.reason,
                     retryAfter: retryAfter)
    }

    static func error(code: String, message: String, reason: String?, retryAfter: Int?) -> LatchError {
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
}
