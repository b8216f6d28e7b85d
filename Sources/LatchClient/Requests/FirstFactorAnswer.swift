import Foundation

/// What a right first factor gets (`POST /v1/signin`, `POST /v1/signin/email/verify`): the session, or for an
/// account with a second factor `{"mfa_required": true, "mfa_ticket", "methods", "expires_in"}` and no token at all.
enum FirstFactorAnswer: APIResponse {
    case session(SessionAnswer)
    /// `methods` without the ones this client does not know (a newer server's); `expiresIn` in seconds.
    case mfaRequired(ticket: String, methods: [MFAMethod], expiresIn: Int)

    private struct Marker: Decodable {
        let mfaRequired: Bool?
        enum CodingKeys: String, CodingKey { case mfaRequired = "mfa_required" }
    }

    private struct SecondStep: Decodable {
        let mfaTicket: String
        let methods: [String]
        let expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case methods
            case mfaTicket = "mfa_ticket"
            case expiresIn = "expires_in"
        }
    }

    init(body: Data) throws {
        guard try APIJSON.decoder.decode(Marker.self, from: body).mfaRequired == true else {
            self = .session(try SessionAnswer(body: body))
            return
        }
        let step = try APIJSON.decoder.decode(SecondStep.self, from: body)
        let methods = step.methods.compactMap(MFAMethod.init(rawValue:))
        self = .mfaRequired(ticket: step.mfaTicket, methods: methods, expiresIn: step.expiresIn)
    }
}
