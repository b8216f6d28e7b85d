import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// The answer of `POST /v1/mfa/totp`.
struct TOTPEnrollmentJSON: Decodable, Sendable {
    let factor_id: String
    let secret: String
    let otpauth_uri: String
    let expires_in: Int
}

/// The answer of `POST /v1/mfa/totp/{id}/activate`.
struct TOTPActivationJSON: Decodable, Sendable {
    let recovery_codes: [String]
    let access_token: String
    let access_token_expires_at: String

    var bearer: [(String, String)] { [("Authorization", "Bearer \(access_token)")] }
}

/// The answer of a first factor for a user with a second one: a ticket, no token.
struct SecondFactorChallengeJSON: Decodable, Sendable {
    let mfa_required: Bool
    let mfa_ticket: String
    let methods: [String]
    let expires_in: Int
}

/// The answer of `GET /v1/mfa`.
struct SecondFactorStatusJSON: Decodable, Sendable {
    struct Factor: Decodable, Sendable {
        let id: String
        let type: String
        let name: String
        let created_at: String
        let last_used_at: String?
    }

    let factors: [Factor]
    let recovery_codes_remaining: Int
}

/// A user whose TOTP factor pyotp enrolled and activated with T's code (its last accepted step is T): the
/// activating session's aal2 access token, the recovery codes, and the authenticator for the codes to come.
struct EnrolledUser: Sendable {
    let email: String
    let password: String
    let userID: String
    let factorID: String
    let enrollment: TOTPEnrollmentJSON
    let authenticator: PyOTPAuthenticator
    let recoveryCodes: [String]
    /// The activation's access token (the session it raised to aal2).
    let accessToken: String

    var bearer: String { accessToken }
}

/// The second factor over real HTTP, as an app and its user's authenticator (pyotp) would drive it.
extension TestApp {
    /// Limits high enough that only the rule under test refuses: the tests sign in and type codes more often
    /// than a person.
    static let roomySecondFactorLimits = EmailSignInTests.roomyLimits.merging([
        "LATCH_RATE_SIGNIN_IP": "1000/1m", "LATCH_RATE_SIGNIN_EMAIL": "1000/15m",
    ]) { $1 }

    static func secondFactorApp(_ environment: [String: String] = [:], clock: any WallClock = SystemClock()) throws
        -> TestApp
    {
        try TestApp(environment: roomySecondFactorLimits.merging(environment) { $1 }, clock: clock)
    }

    /// `POST /v1/mfa/totp` (`{}`, or with a name).
    func enrolTOTP(bearer: String, name: String? = nil) throws -> HTTPTestClient.Response {
        try send("POST", "/v1/mfa/totp", name.map { ["name": $0] } ?? [:], bearer: bearer)
    }

    func activateTOTP(bearer: String, factorID: String, code: String) throws -> HTTPTestClient.Response {
        try send("POST", "/v1/mfa/totp/\(factorID)/activate", ["code": code], bearer: bearer)
    }

    /// `POST /v1/signin/mfa` with a TOTP code.
    func completeSignIn(ticket: String, code: String) throws -> HTTPTestClient.Response {
        try post("/v1/signin/mfa", fields: ["mfa_ticket": ticket, "code": code])
    }

    /// `POST /v1/signin/mfa` with a recovery code.
    func completeSignIn(ticket: String, recoveryCode: String) throws -> HTTPTestClient.Response {
        try post("/v1/signin/mfa", fields: ["mfa_ticket": ticket, "recovery_code": recoveryCode])
    }

    /// `POST /v1/reauthenticate` with `{"code"}` (TOTP) or `{"recovery_code"}`.
    func reauthenticate(bearer: String, totp: String? = nil, recoveryCode: String? = nil) throws
        -> HTTPTestClient.Response
    {
        var fields: [String: String] = [:]
        fields["code"] = totp
        fields["recovery_code"] = recoveryCode
        return try send("POST", "/v1/reauthenticate", fields, bearer: bearer)
    }

    func secondFactorStatus(bearer: String) throws -> SecondFactorStatusJSON {
        let response = try get("/v1/mfa", headers: [("Authorization", "Bearer \(bearer)")])
        guard response.status == 200 else { throw FlowError.unexpected(response.status, response.text) }
        return try response.json(SecondFactorStatusJSON.self)
    }

    /// A first factor that must answer the second-factor challenge.
    static func challenge(_ response: HTTPTestClient.Response) throws -> SecondFactorChallengeJSON {
        guard response.status == 200, let challenge = try? response.json(SecondFactorChallengeJSON.self),
              challenge.mfa_required
        else { throw FlowError.unexpected(response.status, response.text) }
        return challenge
    }

    /// A password sign-in that must answer the challenge: its ticket.
    func ticket(_ email: String, _ password: String, deviceToken: String? = nil) throws -> String {
        var fields = ["email": email, "password": password]
        fields["device_token"] = deviceToken
        return try Self.challenge(try post("/v1/signin", fields: fields)).mfa_ticket
    }

    /// A second step that must open a session.
    func signedIn(_ response: HTTPTestClient.Response) throws -> SessionJSON {
        guard response.status == 200 else { throw FlowError.unexpected(response.status, response.text) }
        return try response.json(SessionJSON.self)
    }

    /// Enrols on the session of `bearer`, which must hold a recent enough proof of presence: the enrolment and
    /// pyotp's reading of its URI, with T taken now (from `clock`). Enrols again, with a new secret, in the
    /// rare case that two of the codes around T are equal.
    func enrolWithPyOTP(bearer: String, clock: any WallClock = SystemClock()) throws
        -> (TOTPEnrollmentJSON, PyOTPAuthenticator)
    {
        for _ in 0..<3 {
            let enrolled = try enrolTOTP(bearer: bearer)
            guard enrolled.status == 201 else { throw FlowError.unexpected(enrolled.status, enrolled.text) }
            let enrollment = try enrolled.json(TOTPEnrollmentJSON.self)
            let authenticator = try PyOTPAuthenticator(uri: enrollment.otpauth_uri, at: clock.now())
            if authenticator.codesAreDistinct { return (enrollment, authenticator) }
        }
        throw FlowError.unexpected(0, "three secrets in a row with equal codes around T")
    }

    /// A confirmed user who signed in with the password, re-authenticated with it, enrolled with pyotp and
    /// activated with T's code. The confirm's session is ended by the activation; the signed-in one is aal2.
    func enrolledUser(_ email: String, _ password: String = "correct horse battery",
                      clock: any WallClock = SystemClock()) throws -> EnrolledUser {
        _ = try signUpAndConfirm(email, password)
        let signedIn = try session(email, password)
        let proven = try reauthenticate(bearer: signedIn.access_token, password: password)
        guard proven.status == 200 else { throw FlowError.unexpected(proven.status, proven.text) }
        let bearer = try proven.json(ReauthenticatedJSON.self).access_token
        let (enrollment, authenticator) = try enrolWithPyOTP(bearer: bearer, clock: clock)
        let activated = try activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: authenticator.code(0))
        guard activated.status == 200 else {
            throw FlowError.unexpected(activated.status, "\(activated.text) (\(authenticator.timing))")
        }
        let activation = try activated.json(TOTPActivationJSON.self)
        return EnrolledUser(
            email: email, password: password, userID: signedIn.user.id, factorID: enrollment.factor_id,
            enrollment: enrollment, authenticator: authenticator, recoveryCodes: activation.recovery_codes,
            accessToken: activation.access_token)
    }

    /// A sign-in of `user` with the password and then the TOTP code of T + `offset`: the session.
    func signInWithTOTP(_ user: EnrolledUser, offset: Int64) throws -> SessionJSON {
        let response = try completeSignIn(ticket: try ticket(user.email, user.password),
                                          code: user.authenticator.code(offset))
        guard response.status == 200 else {
            throw FlowError.unexpected(response.status, "\(response.text) (\(user.authenticator.timing))")
        }
        return try response.json(SessionJSON.self)
    }

    /// A sign-in of `user` with the password and then one of the recovery codes: the session.
    func signInWithRecoveryCode(_ user: EnrolledUser, _ index: Int) throws -> SessionJSON {
        try signedIn(try completeSignIn(ticket: try ticket(user.email, user.password),
                                        recoveryCode: user.recoveryCodes[index]))
    }
}

extension SecondFactorTesting {
    static func expect(_ response: HTTPTestClient.Response, _ status: Int, _ code: String, _ context: String = "",
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status && ErrorJSON.code(response) == code,
                "\(response.status) \(response.text) \(context)", sourceLocation: sourceLocation)
    }
}

/// What the second-factor suites share.
enum SecondFactorTesting {
    static let password = "correct horse battery"

    /// RFC 9470's challenge for a user with a second factor.
    static let aal2Challenge =
        #"Bearer error="insufficient_user_authentication", acr_values="aal2", max_age=600"#
}
