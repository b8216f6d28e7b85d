import Foundation
import LatchClient
import Testing

/// Errors/ErrorResponse.swift: every refusal of the API becomes its own `LatchError` case, never a status.
@Suite struct LatchErrorTests {
    /// Signs in against a server that answers `response`, and returns what the client threw.
    func thrown(by response: TransportResponse) async -> LatchError? {
        let harness = Harness(signedIn: false)
        harness.server.state.withLock { $0.scripted["/v1/signin"] = response }
        do throws(LatchError) {
            try await harness.client.signIn(email: "ada@example.com", password: "correct horse battery staple")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (422, "invalid_email", nil, nil, LatchError.invalidEmail),
        (422, "weak_password", "password_too_common", nil, .weakPassword(reason: .passwordTooCommon)),
        (422, "weak_password", "a_rule_from_the_future", nil, .weakPassword(reason: nil)),
        (401, "invalid_credentials", nil, nil, .invalidCredentials),
        (403, "email_not_confirmed", nil, nil, .emailNotConfirmed),
        (403, "user_disabled", nil, nil, .userDisabled),
        (400, "invalid_token", nil, nil, .invalidToken),
        (400, "token_expired", nil, nil, .tokenExpired),
        (409, "token_used", nil, nil, .tokenUsed),
        (409, "token_superseded", nil, nil, .tokenSuperseded),
        (409, "already_confirmed", nil, nil, .alreadyConfirmed),
        (429, "rate_limited", nil, 42, .rateLimited(retryAfter: 42)),
        (429, "rate_limited", nil, nil, .rateLimited(retryAfter: nil)),
        (401, "invalid_session", nil, nil, .invalidSession),
        (401, "session_expired", nil, nil, .sessionExpired),
        (401, "refresh_token_reused", nil, nil, .refreshTokenReused),
        (401, "reauthentication_required", nil, nil, .reauthenticationRequired(maxAge: nil)),
        (401, "invalid_mfa_ticket", nil, nil, .invalidMFATicket),
        (400, "invalid_mfa_code", nil, nil, .invalidMFACode),
        (400, "mfa_required", nil, nil, .mfaRequired),
        (409, "mfa_not_enabled", nil, nil, .mfaNotEnabled),
        (404, "factor_not_found", nil, nil, .factorNotFound),
        (400, "invalid_passkey_challenge", nil, nil, .invalidPasskeyChallenge),
        (400, "passkey_rejected", nil, nil, .passkeyRejected),
        (404, "passkey_not_found", nil, nil, .passkeyNotFound),
        (409, "last_sign_in_method", nil, nil, .lastSignInMethod),
        (400, "invalid_nonce", nil, nil, .invalidNonce),
        (401, "invalid_id_token", nil, nil, .invalidIDToken),
        (403, "provider_email_unverified", nil, nil, .providerEmailUnverified),
        (503, "provider_unavailable", nil, 30, .providerUnavailable(retryAfter: 30)),
        (503, "provider_unavailable", nil, nil, .providerUnavailable(retryAfter: nil)),
        (404, "identity_not_found", nil, nil, .identityNotFound),
        (422, "unsupported_locale", nil, nil, .unsupportedLocale),
        (422, "invalid_request", nil, nil, .invalidRequest(message: "message for invalid_request")),
        (400, "invalid_json", nil, nil, .rejectedRequest(code: "invalid_json")),
        (413, "payload_too_large", nil, nil, .rejectedRequest(code: "payload_too_large")),
        (503, "service_unavailable", nil, 3, .serviceUnavailable(retryAfter: 3)),
        (503, "overloaded", nil, 1, .overloaded(retryAfter: 1)),
        (418, "a_code_from_the_future", nil, nil, .unknownCode(code: "a_code_from_the_future",
                                                                   message: "message for a_code_from_the_future")),
    ] as [(Int, String, String?, Int?, LatchError)])
    func eachCodeIsItsOwnCase(status: Int, code: String, reason: String?, retryAfter: Int?, expected: LatchError)
        async {
        let error = await thrown(by: FakeLatchServer.error(status, code, reason: reason, retryAfter: retryAfter))
        #expect(error == expected)
        #expect(error?.code == code)
        #expect(error?.retryAfter == retryAfter)
    }

    @Test func everyErrorCodeOfTheOpenAPIDocumentHasACase() async throws {
        let codes = try Self.openAPIErrorCodes()
        #expect(codes.count >= 20, "the document was read: \(codes.sorted())")
        for code in codes.sorted() {
            let error = try #require(await thrown(by: FakeLatchServer.error(400, code)))
            if case .unknownCode = error { Issue.record("\(code) has no case of its own") }
            // not_ready and shutting_down are 503s like service_unavailable, and mean the same to an app.
            #expect(error.code == code
                || (["not_ready", "shutting_down"].contains(code) && error == .serviceUnavailable(retryAfter: nil)),
                    "\(code) reads back as \(error.code)")
        }
    }

    @Test(arguments: [
        (#"Bearer error="insufficient_user_authentication", max_age=600"#, 600),
        (#"Bearer error="insufficient_user_authentication", error_description="Sign in again, \"please\"", "#
            + #"max_age="300""#, 300),
        (#"bearer max_age = 5 ,error="insufficient_user_authentication""#, 5),
        (#"Bearer error="insufficient_user_authentication""#, nil),
        (#"Bearer error="insufficient_user_authentication", error_description="not max_age=9""#, nil),
        ("Bearer max_age=-1", nil),
        ("Bearer max_age=soon", nil),
        (#"Bearer max_age="600"#, nil),
        ("Basic max_age=600", nil),
        ("Bearer", nil),
        ("", nil),
    ] as [(String, Int?)])
    func reauthenticationRequiredReadsMaxAgeFromTheChallenge(challenge: String, maxAge: Int?) async {
        let error = await thrown(by: FakeLatchServer.error(401, "reauthentication_required", challenge: challenge))
        #expect(error == .reauthenticationRequired(maxAge: maxAge))
        #expect(error?.endsSession == false)
        #expect(error?.code == "reauthentication_required")
    }

    @Test(arguments: [
        (#"Bearer error="insufficient_user_authentication", acr_values="aal2", max_age=600"#, "aal2", 600),
        (#"Bearer error="insufficient_user_authentication", max_age=600"#, nil, 600),
        (#"Bearer ACR_VALUES=aal2"#, "aal2", nil),
        (#"Bearer acr_values="aal2 aal3", max_age="60""#, "aal2 aal3", 60),
        (#"Bearer acr_values="", max_age=600"#, nil, 600),
        (#"Bearer error_description="acr_values=aal2 please", max_age=600"#, nil, 600),
        (#"Basic acr_values="aal2""#, nil, nil),
    ] as [(String, String?, Int?)])
    func reauthenticationRequiredReadsAcrValuesBesideMaxAge(challenge: String, acrValues: String?, maxAge: Int?)
        async {
        let error = await thrown(by: FakeLatchServer.error(401, "reauthentication_required", challenge: challenge))
        #expect(error == .reauthenticationRequired(maxAge: maxAge, acrValues: acrValues))
        #expect(error?.endsSession == false)
    }

    @Test func reauthenticationRequiredSaysItsMaxAgeAndContext() {
        #expect(String(describing: LatchError.reauthenticationRequired(maxAge: 600))
                == "reauthentication_required (within 600 s)")
        #expect(String(describing: LatchError.reauthenticationRequired(maxAge: nil)) == "reauthentication_required")
        #expect(String(describing: LatchError.reauthenticationRequired(maxAge: 600, acrValues: "aal2"))
                == "reauthentication_required (aal2, within 600 s)")
        #expect(String(describing: LatchError.reauthenticationRequired(maxAge: nil, acrValues: "aal2"))
                == "reauthentication_required (aal2)")
    }

    @Test func theSecondFactorsRefusalsEndNoSession() {
        for error in [LatchError.invalidMFATicket, .invalidMFACode, .mfaRequired, .mfaNotEnabled, .factorNotFound] {
            #expect(!error.endsSession, "\(error)")
            #expect(error.retryAfter == nil)
        }
    }

    @Test func anAnswerThatIsNotTheAPIsIsAnInvalidResponse() async {
        let page = TransportResponse(status: 502, headers: ["Content-Type": "text/html"],
                                     body: Data("<h1>Bad gateway".utf8))
        let error = await thrown(by: page)
        guard case .invalidResponse = error else {
            Issue.record("expected invalidResponse, got \(String(describing: error))")
            return
        }
    }

    @Test func noAnswerAtAllIsANetworkError() async {
        struct Offline: HTTPTransport {
            func send(_ request: TransportRequest) async throws -> TransportResponse {
                throw URLError(.notConnectedToInternet)
            }
        }
        let client = LatchClient(baseURL: Harness.baseURL, transport: Offline())
        await #expect {
            try await client.forgotPassword(email: "ada@example.com")
        } throws: { error in
            if case .network = error as? LatchError { true } else { false }
        }
    }

    @Test func aSuccessWhoseBodyDoesNotDecodeIsAnInvalidResponse() async {
        let error = await thrown(by: FakeLatchServer.json(200, ["access_token": "only this"]))
        guard case .invalidResponse(let detail) = error else {
            Issue.record("expected invalidResponse, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("/v1/signin"))
        #expect(!detail.contains("only this"), "the body's values are not echoed: \(detail)")
    }

    /// The codes named in `enum: [...]` lists of openapi.yaml's error responses, but the admin API's (its `/admin/`
    /// paths and `Admin…` components): that API is for operators' services, not the app, whose client has no case
    /// for them.
    static func openAPIErrorCodes() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        var codes: Set<String> = []
        var inAdmin = false
        for (index, line) in lines.enumerated() {
            if !line.hasPrefix(" ") { inAdmin = false }
            if line.hasPrefix("  /") { inAdmin = line.hasPrefix("  /admin/") }
            if line.hasPrefix("    "), line.dropFirst(4).first?.isUppercase == true { inAdmin = line.hasPrefix("    Admin") }
            guard !inAdmin, index > 0, lines[index - 1].trimmingCharacters(in: .whitespaces) == "code:" else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("enum: ["), trimmed.hasSuffix("]") else { continue }
            let list = trimmed.dropFirst("enum: [".count).dropLast()
            codes.formUnion(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return codes
    }
}
