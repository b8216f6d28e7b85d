import AuthCore
import HTTPServer

/// `POST /v1/signin`: 200 with a session and a device token (or, for a user with a second factor, a ticket for
/// `POST /v1/signin/mfa` and no token), or 401 `invalid_credentials` for unknown email and wrong password alike.
struct SignInRoutes: Sendable {
    let context: RouteContext
    /// Sign-in verifies an Argon2 hash (or a dummy one), so it runs off the MHD threads.
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.post("/v1/signin", pool: hashingPool, handler: signIn)
        router.post("/v1/signin/mfa", handler: completeSecondFactor)
    }

    func signIn(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try SignInBody.decode(from: request)
        let client = context.clients.resolve(request)
        let outcome = try context.auth.signIn(email: body.email, password: body.password, deviceToken: body.deviceToken,
                                              ip: client.ip, userAgent: client.userAgent)
        return Self.response(outcome)
    }

    /// 200 with the session (and a device token) for a live ticket and a right code; 400 `invalid_mfa_code`,
    /// 401 `invalid_mfa_ticket`.
    func completeSecondFactor(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try SecondFactorSignInBody.decode(from: request)
        let client = context.clients.resolve(request)
        do {
            let session = try context.auth.completeSecondFactor(ticket: body.mfaTicket, proof: try body.proof(),
                                                                ip: client.ip, userAgent: client.userAgent)
            context.secondFactorMetrics.recordSignIn()
            return APIJSON.response(SessionResponse(session))
        } catch let error as AuthError {
            context.secondFactorMetrics.recordFailure(error)
            throw error
        }
    }

    /// The answer of a first-factor sign-in: the session, or the second-factor challenge.
    static func response(_ outcome: SignInOutcome) -> HTTPResponse {
        switch outcome {
        case .signedIn(let session): APIJSON.response(SessionResponse(session))
        case .secondFactorRequired(let challenge): APIJSON.response(SecondFactorChallengeResponse(challenge))
        }
    }
}

/// `{"mfa_required": true, "mfa_ticket", "methods", "expires_in"}`: a correct first factor, and no token.
struct SecondFactorChallengeResponse: Encodable, Equatable {
    let mfaRequired = true
    let mfaTicket: String
    let methods: [String]
    let expiresIn: Int

    init(_ challenge: SecondFactorChallenge) {
        mfaTicket = challenge.ticket
        methods = challenge.methods
        expiresIn = challenge.expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case mfaRequired = "mfa_required"
        case mfaTicket = "mfa_ticket"
        case methods
        case expiresIn = "expires_in"
    }
}
