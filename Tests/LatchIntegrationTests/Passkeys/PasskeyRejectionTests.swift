import Foundation
import LatchTestSupport
import Testing

/// Every registration and assertion broken in one way is refused with 400 `passkey_rejected`, leaves no session,
/// refresh token or passkey behind, and is audited (`passkey_failed`, its reason in the detail). Each loop ends
/// with the unbroken ceremony succeeding, so the refusals were the breakage's and not the setup's.
@Suite struct PasskeyRejectionTests {
    /// The audit reasons (`PasskeyRejection.Reason`) a broken registration may be refused for: the first is the
    /// check the mutation breaks; where a stricter earlier check may see it first, that one is allowed too.
    static let registrationReasons: [RegistrationMutation: Set<String>] = [
        .wrongType: ["client_data_type"],
        .wrongChallenge: ["challenge"],
        .foreignOrigin: ["origin"],
        .wrongRPIDHash: ["rp_id_hash"],
        .upClear: ["user_presence"],
        .uvClear: ["user_verification"],
        .bsWithoutBE: ["backup_state"],
        .atClear: ["attested_credential_data"],
        .trailingAuthData: ["attested_credential_data", "cbor", "malformed"],
        .unofferedAlgorithm: ["algorithm"],
        .algorithmKeyMismatch: ["algorithm", "public_key"],
        .offCurve: ["public_key"],
        .smallRSA: ["public_key"],
        .duplicateMapKey: ["cbor"],
        .duplicateCOSEKey: ["cbor", "public_key"],
        .indefiniteMap: ["cbor"],
        .trailingBytes: ["cbor"],
        .noneWithAttStmt: ["attestation_statement"],
        .rawIDMismatch: ["credential_id"],
        .emptyChallenge: ["challenge", "malformed"],
    ]

    /// Checks one refusal of a ceremony: 400 with `code`, no token in the body, nothing stored, one more
    /// `passkey_failed` row whose reason is one of `reasons` (nil: not checked).
    static func expectRefused(
        _ app: TestApp, _ context: String, code: String = "passkey_rejected", reasons: Set<String>? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, _ attempt: () throws -> HTTPTestClient.Response
    ) throws {
        let before = try app.passkeyFootprint()
        let failures = try app.auditCount("passkey_failed")
        let response = try attempt()
        PasskeyTesting.expect(response, 400, code, context, sourceLocation: sourceLocation)
        PasskeyTesting.expectNoToken(response, context, sourceLocation: sourceLocation)
        let after = try app.passkeyFootprint()
        #expect(after == before, "\(context): a refusal changed \(before) into \(after)", sourceLocation: sourceLocation)
        guard let reasons else { return }
        #expect(try app.auditCount("passkey_failed") == failures + 1,
                "\(context): one passkey_failed audit row", sourceLocation: sourceLocation)
        let reason = try app.latestPasskeyFailureReason()
        let detail = try app.latestAuditDetail("passkey_failed")
        #expect(reason.map(reasons.contains) == true,
                "\(context): audit reason \(reason ?? "none"), expected one of \(reasons.sorted()); detail \(detail)",
                sourceLocation: sourceLocation)
    }

    @Test func everyBrokenRegistrationIsRefused() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("broken-create@example.test")
        for mutation in RegistrationMutation.allCases {
            let options = try app.registrationOptions(bearer: user.bearer)
            let broken = try SoftwareAuthenticator.create(
                options, algorithm: mutation == .smallRSA ? -257 : -7, mutations: [mutation])
            try Self.expectRefused(app, "registration \(mutation.rawValue)", reasons: Self.registrationReasons[mutation]) {
                try app.verifyPasskeyRegistration(bearer: user.bearer, challengeID: options.challengeID,
                                                  credential: broken.credential)
            }
        }
        #expect(try app.passkeys(bearer: user.bearer).isEmpty)
        let metrics = try app.metrics().text
        let failureLines = metrics.split(separator: "\n").filter { $0.hasPrefix("latch_passkey_failures_total{") }
        // Counted by error code, as latch_mfa_failures_total; the check that failed is in the audit row.
        #expect(failureLines.contains { $0.contains(#"reason="passkey_rejected""#) }, "failure metrics: \(failureLines)")
        // The control: the same user, options and authenticator, unbroken.
        _ = try app.registerPasskey(bearer: user.bearer)
    }

    /// One broken assertion: the authenticator's changes, and the reasons it may be audited under.
    struct AssertionCase: CustomStringConvertible, Sendable {
        let name: String
        var mutations: [AssertionMutation] = []
        var flags: AuthenticatorFlags?
        var userHandle: String?? = .none
        var credentialID: String?
        let reasons: Set<String>
        var description: String { name }
    }

    static let assertionCases: [AssertionCase] = AssertionMutation.allCases.map { mutation in
        let reasons: Set<String> = switch mutation {
        case .wrongType: ["client_data_type"]
        case .wrongChallenge: ["challenge"]
        case .foreignOrigin: ["origin"]
        case .wrongRPIDHash: ["rp_id_hash"]
        case .upClear: ["user_presence"]
        case .uvClear: ["user_verification"]
        case .bsWithoutBE: ["backup_state"]
        case .badSignature, .signedOtherData: ["signature"]
        case .trailingAuthData: ["malformed", "cbor"]
        }
        return AssertionCase(name: mutation.rawValue, mutations: [mutation], reasons: reasons)
    } + [
        AssertionCase(name: "BE set on a device-bound passkey", flags: AuthenticatorFlags(be: true),
                      reasons: ["backup_state"]),
        AssertionCase(name: "no userHandle", userHandle: .some(nil), reasons: ["unknown_credential", "malformed"]),
        AssertionCase(name: "a userHandle nobody has",
                      userHandle: .some(PasskeyTesting.base64url(Data(repeating: 7, count: 32))),
                      reasons: ["unknown_credential"]),
        AssertionCase(name: "a credential id nobody has",
                      credentialID: PasskeyTesting.base64url(Data(repeating: 9, count: 32)),
                      reasons: ["unknown_credential"]),
    ]

    @Test func everyBrokenSignInIsRefused() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("broken-get@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, signCount: 1)
        var counter: UInt32 = 1
        for item in Self.assertionCases {
            counter += 1
            let options = try app.signInOptions()
            let assertion = try SoftwareAuthenticator.get(
                options, with: passkey.stored, signCount: counter, flags: item.flags, mutations: item.mutations,
                userHandle: item.userHandle, credentialID: item.credentialID)
            try Self.expectRefused(app, "sign-in with \(item)", reasons: item.reasons) {
                try app.verifyPasskeyAuthentication(challengeID: options.challengeID, credential: assertion)
            }
        }
        #expect(try app.auditCount("passkey_signin_succeeded") == 0)
        // The control: the same passkey, unbroken, with a counter above every one sent.
        _ = try app.signInWithPasskey(passkey.stored, signCount: counter + 1)
    }

    /// A re-authentication is a passkey ceremony too: a broken assertion does not re-authenticate (the session's
    /// privileged calls stay refused).
    @Test func aBrokenReauthenticationIsRefused() throws {
        let app = try TestApp.passkeyApp()
        defer { app.stop() }
        let user = try app.passkeyUser("broken-reauth@example.test")
        let passkey = try app.registerPasskey(bearer: user.bearer, signCount: 1)
        let session = try app.signInWithPasskey(passkey.stored, signCount: 2)
        for (offset, mutation) in [AssertionMutation.badSignature, .wrongChallenge, .uvClear].enumerated() {
            let options = try app.reauthenticationOptions(bearer: session.access_token)
            let assertion = try SoftwareAuthenticator.get(options, with: passkey.stored, signCount: UInt32(3 + offset),
                                                          mutations: [mutation])
            let response = try app.reauthenticate(bearer: session.access_token, challengeID: options.challengeID,
                                                  credential: assertion)
            PasskeyTesting.expect(response, 400, "passkey_rejected", "re-authentication with \(mutation.rawValue)")
            PasskeyTesting.expectNoToken(response, "re-authentication with \(mutation.rawValue)")
        }
        PasskeyTesting.expect(try app.deletePasskey(bearer: session.access_token, id: passkey.record.id),
                              401, "reauthentication_required", "after refused re-authentications")
    }
}
