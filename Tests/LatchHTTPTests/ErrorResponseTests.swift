import AuthCore
import AuthCoreTesting
import Foundation
import HTTPServer
import TestKit
import Testing
@testable import LatchHTTP

/// Each error type says its own answer once (`HTTPResponseError`); the server turns every other error into a
/// generic 503 through `LatchAPI.unexpectedErrorHandler`.
@Suite struct ErrorResponseTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let error: AuthError
        let status: Int
        let retryAfter: String?
        let challenge: String?
        var testDescription: String { error.code }
    }

    static let rows: [Row] = [
        Row(error: .invalidEmail, status: 422, retryAfter: nil, challenge: nil),
        Row(error: .weakPassword(.passwordTooShort), status: 422, retryAfter: nil, challenge: nil),
        Row(error: .invalidCredentials, status: 401, retryAfter: nil, challenge: nil),
        Row(error: .emailNotConfirmed, status: 403, retryAfter: nil, challenge: nil),
        Row(error: .userDisabled, status: 403, retryAfter: nil, challenge: nil),
        Row(error: .invalidToken, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .tokenExpired, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .tokenUsed, status: 409, retryAfter: nil, challenge: nil),
        Row(error: .tokenSuperseded, status: 409, retryAfter: nil, challenge: nil),
        Row(error: .alreadyConfirmed, status: 409, retryAfter: nil, challenge: nil),
        Row(error: .invalidCode, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .rateLimited(retryAfter: 42), status: 429, retryAfter: "42", challenge: nil),
        Row(error: .invalidSession, status: 401, retryAfter: nil, challenge: #"Bearer error="invalid_token""#),
        Row(error: .sessionExpired, status: 401, retryAfter: nil, challenge: #"Bearer error="invalid_token""#),
        Row(error: .refreshTokenReused, status: 401, retryAfter: nil, challenge: #"Bearer error="invalid_token""#),
        // The same code as a bad link's, but a bearer refusal: 401 with the challenge, not 400.
        Row(error: .invalidAccessToken, status: 401, retryAfter: nil, challenge: #"Bearer error="invalid_token""#),
        // RFC 9470: the client re-authenticates and retries with the new token.
        Row(error: .reauthenticationRequired(maxAge: 600), status: 401, retryAfter: nil,
            challenge: #"Bearer error="insufficient_user_authentication", max_age=600"#),
        // A user with a second factor: RFC 9470's acr_values says a re-authentication with it is needed.
        Row(error: .reauthenticationRequired(maxAge: 600, acr: .aal2), status: 401, retryAfter: nil,
            challenge: #"Bearer error="insufficient_user_authentication", acr_values="aal2", max_age=600"#),
        Row(error: .invalidMFATicket, status: 401, retryAfter: nil, challenge: nil),
        Row(error: .invalidMFACode, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .mfaRequired, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .mfaNotEnabled, status: 409, retryAfter: nil, challenge: nil),
        Row(error: .factorNotFound, status: 404, retryAfter: nil, challenge: nil),
        Row(error: .invalidPasskeyChallenge, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .passkeyRejected, status: 400, retryAfter: nil, challenge: nil),
        Row(error: .passkeyNotFound, status: 404, retryAfter: nil, challenge: nil),
        Row(error: .lastSignInMethod, status: 409, retryAfter: nil, challenge: nil),
    ]

    @Test(arguments: rows)
    func authErrorsMapToStatusCodeAndHeaders(row: Row) throws {
        let response = row.error.response
        #expect(response.status.rawValue == row.status)
        #expect(response.errorCode == row.error.code)
        #expect(response.errorMessage == row.error.message)
        #expect(response.headers["Retry-After"] == row.retryAfter)
        #expect(response.headers["WWW-Authenticate"] == row.challenge)
        #expect(response.headers["Content-Type"] == HTTPResponse.jsonContentType)
    }

    @Test func tableHasOneRowPerAuthErrorCode() {
        let codes = Set(Self.rows.map(\.error.code))
        #expect(codes.count == 25)
    }

    @Test func weakPasswordCarriesItsReason() throws {
        let response = AuthError.weakPassword(.passwordTooCommon).response
        let error = try #require(try response.jsonObject()["error"] as? [String: Any])
        #expect(error["reason"] as? String == "password_too_common")
        #expect(error["code"] as? String == "weak_password")
    }

    @Test func otherErrorsHaveNoReasonKey() throws {
        let response = AuthError.invalidCredentials.response
        let error = try #require(try response.jsonObject()["error"] as? [String: Any])
        #expect(Set(error.keys) == ["code", "message"])
    }

    @Test func unknownErrorsBecomeAGeneric503WithoutDetailsAndAreReportedWithTheRoute() {
        let reported = Locked<[String]>([])
        let handler = LatchAPI.unexpectedErrorHandler { route, _ in reported.update { $0.append(route) } }
        let failing = HTTPRouteMatch(route: "/v1/me") { _ in throw InMemoryAuthStore.DatabaseDown() }
        let response = failing.respond(to: HTTPRequest(method: .get, target: "/v1/me"), unexpected: handler)
        #expect(response.status == .serviceUnavailable)
        #expect(response.errorCode == "service_unavailable")
        #expect(!response.text.contains("10.0.0.5"))
        #expect(!response.text.contains("hunter2"))
        #expect(reported.value == ["/v1/me"])
        // An error with its own answer is not reported.
        let refused = HTTPRouteMatch(route: "/v1/me") { _ in throw AuthError.invalidToken }
        #expect(refused.respond(to: HTTPRequest(method: .get, target: "/v1/me"), unexpected: handler).status == .badRequest)
        #expect(reported.value == ["/v1/me"])
    }

    @Test func requestErrorsMap() {
        let cases: [(any Error, Int, String)] = [
            (JSONBodyError.unsupportedMediaType, 415, "unsupported_media_type"),
            (JSONBodyError.emptyBody, 400, "invalid_json"),
            (JSONBodyError.malformed, 400, "invalid_json"),
            (JSONBodyError.invalidField("email"), 422, "invalid_request"),
            (APIError.invalidField("token"), 422, "invalid_request"),
            (APIError.fieldTooLong("password", maxBytes: 1024), 422, "invalid_request"),
            (APIError.fieldTooManyCharacters("password", maxCharacters: 1024), 422, "invalid_request"),
            (APIError.unknownField(expected: ["email"]), 422, "invalid_request"),
            (APIError.fieldHasNUL("email"), 422, "invalid_request"),
            (APIError.missingToken, 401, "missing_token"),
            (APIError.malformedToken, 401, "invalid_token"),
            (APIError.notReady, 503, "not_ready"),
            (HTTPError(status: .notFound, code: "not_found", message: "x"), 404, "not_found"),
        ]
        for (error, status, code) in cases {
            let response = (error as? any HTTPResponseError)?.response ?? HTTPResponse.internalError
            #expect(response.status.rawValue == status, "\(error)")
            #expect(response.errorCode == code, "\(error)")
        }
    }

    @Test func httpErrorsKeepTheirHeader() {
        let error = HTTPError(status: .tooManyRequests, code: "slow_down", message: "m", headers: ["Retry-After": "9"])
        let response = error.response
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Retry-After"] == "9")
    }

    @Test func bearerChallenges() {
        #expect(APIError.missingToken.response.headers["WWW-Authenticate"] == "Bearer")
        #expect(APIError.malformedToken.response.headers["WWW-Authenticate"]
            == #"Bearer error="invalid_token""#)
    }

    @Test func fieldErrorsNameTheFieldOnly() {
        let message = APIError.fieldTooLong("password", maxBytes: 1024).message
        #expect(message.contains("password"))
        #expect(JSONBodyError.invalidField("refresh_token").message.contains("refresh_token"))
    }
}
