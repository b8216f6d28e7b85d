import Foundation
import LatchClient
import Testing

/// LatchClient+MFAFactors.swift: listing, adding (enrol, then activate with a code), new recovery codes and removing,
/// each privileged call behind the proof the account needs.
@Suite struct MFAFactorTests {
    static let password = FakeLatchServer.password

    @Test func theStatusListsTheActiveFactorsAndTheCodesLeft() async throws {
        let harness = Harness()
        let none = try await harness.client.mfaStatus()
        #expect(none == MFAStatus(factors: [], recoveryCodesRemaining: 0))
        #expect(!none.isEnabled)

        harness.server.enableSecondFactor()
        let status = try await harness.client.mfaStatus()
        #expect(status.factors == [MFAFactor(id: FakeLatchServer.factorID, type: .totp, name: "Authenticator",
                                             createdAt: Date(timeIntervalSince1970: 1_700_000_000), lastUsedAt: nil)])
        #expect(status.recoveryCodesRemaining == 10)
        #expect(status.isEnabled)
        let request = try #require(harness.server.requests("/v1/mfa").last)
        #expect(request.method == "GET")
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(request.body == nil)
    }

    @Test func aFactorOfAKindThisClientDoesNotKnowStillLists() async throws {
        let harness = Harness()
        harness.server.state.withLock {
            $0.scripted["/v1/mfa"] = FakeLatchServer.json(200, ["recovery_codes_remaining": 7, "factors": [[
                "id": "6f1c2a4e-0000-4000-8000-0000000000aa", "type": "webauthn", "name": "Key",
                "created_at": "2024-01-01T00:00:00Z", "last_used_at": "2024-02-01T00:00:00.5Z",
            ]]])
        }
        let status = try await harness.client.mfaStatus()
        #expect(status.factors.map(\.type) == [MFAFactorType(rawValue: "webauthn")])
        #expect(status.factors.first?.lastUsedAt == Date(timeIntervalSince1970: 1_706_745_600.5))
    }

    @Test func enrolmentNeedsPresenceThenTheCodeActivatesAndReplacesTheAccessToken() async throws {
        let harness = Harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user != nil)
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: nil),
                      "no factor yet: the password proves presence") {
            try await harness.client.enrollTOTP()
        }
        try await harness.client.reauthenticate(password: Self.password)

        #expect(try await harness.client.sessions().first?.aal == .aal1)
        let enrollment = try await harness.client.enrollTOTP(name: "Phone")
        let enrol = try #require(harness.server.requests("/v1/mfa/totp").last)
        #expect(enrol.method == "POST")
        #expect(enrol.fields as? [String: String] == ["name": "Phone"])
        #expect(enrollment.secret == FakeLatchServer.totpSecret)
        #expect(enrollment.otpauthURI.scheme == "otpauth")
        #expect(enrollment.otpauthURI.absoluteString.contains("secret=\(FakeLatchServer.totpSecret)"))
        #expect(enrollment.expiresIn == 600)
        var dumped = ""
        dump(enrollment, to: &dumped)
        for text in [String(describing: enrollment), String(reflecting: enrollment), dumped] {
            #expect(!text.contains(FakeLatchServer.totpSecret), "\(text)")
        }

        await #expect(throws: LatchError.invalidMFACode) {
            try await harness.client.activateTOTP(factorID: enrollment.factorID, code: "000000")
        }
        let codes = try await harness.client.activateTOTP(factorID: enrollment.factorID, code: FakeLatchServer.totpCode)
        #expect(codes == FakeLatchServer.recoveryCodes(batch: 1))
        let activate = try #require(harness.server.allRequests.last)
        #expect(activate.method == "POST")
        #expect(activate.url.path == "/v1/mfa/totp/\(enrollment.factorID.uuidString.lowercased())/activate")
        #expect(activate.fields as? [String: String] == ["code": FakeLatchServer.totpCode])
        #expect(activate.headers["Authorization"] == "Bearer access-1-reauthenticated-1")

        let stored = try #require(harness.store.loadSession())
        #expect(stored.accessToken == "access-1-aal2")
        #expect(stored.refreshToken == "refresh-1", "the same session")
        #expect(try await harness.client.sessions().first?.aal == .aal2, "this session passed the second factor")
        let status = try await harness.client.mfaStatus()
        #expect(status.factors.map(\.name) == ["Phone"])
        #expect(harness.server.requests("/v1/mfa").last?.headers["Authorization"] == "Bearer access-1-aal2")
        #expect(harness.server.count("/v1/token/refresh") == 0)

        try await harness.client.signOut()
        #expect(await changes.next() == .signedOut, "the enrolment reported no change of the auth state")
    }

    @Test func theDefaultNameSendsAnEmptyBody() async throws {
        let harness = Harness()
        try await harness.client.reauthenticate(password: Self.password)
        _ = try await harness.client.enrollTOTP()
        let body = harness.server.requests("/v1/mfa/totp").last?.body
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == "{}")
    }

    @Test func anEnrolmentThatIsNoLongerPendingIsNotFound() async throws {
        let harness = Harness()
        try await harness.client.reauthenticate(password: Self.password)
        let first = try await harness.client.enrollTOTP()
        let second = try await harness.client.enrollTOTP()
        await #expect(throws: LatchError.factorNotFound, "replaced by the newer one") {
            try await harness.client.activateTOTP(factorID: first.factorID, code: FakeLatchServer.totpCode)
        }
        harness.clock.advance(by: 600)
        await #expect(throws: LatchError.factorNotFound, "expired") {
            try await harness.client.activateTOTP(factorID: second.factorID, code: FakeLatchServer.totpCode)
        }
        #expect(await harness.client.currentUser != nil)
    }

    @Test func newRecoveryCodesNeedTheSecondFactorsProof() async throws {
        let harness = Harness()
        harness.server.enableSecondFactor()
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: "aal2")) {
            try await harness.client.regenerateRecoveryCodes()
        }
        try await harness.client.reauthenticate(code: FakeLatchServer.totpCode)
        let codes = try await harness.client.regenerateRecoveryCodes()
        #expect(codes == FakeLatchServer.recoveryCodes(batch: 1))
        let request = try #require(harness.server.requests("/v1/mfa/recovery-codes").last)
        #expect(request.method == "POST")
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == "{}")
        #expect(try await harness.client.mfaStatus().recoveryCodesRemaining == 10)
    }

    @Test func newRecoveryCodesWithoutAFactorAreRefused() async throws {
        let harness = Harness()
        try await harness.client.reauthenticate(password: Self.password)
        await #expect(throws: LatchError.mfaNotEnabled) { try await harness.client.regenerateRecoveryCodes() }
    }

    @Test func removingAFactorNeedsItsProofAndThenItIsGone() async throws {
        let harness = Harness()
        harness.server.enableSecondFactor()
        await #expect(throws: LatchError.reauthenticationRequired(maxAge: 600, acrValues: "aal2")) {
            try await harness.client.removeTOTP(factorID: FakeLatchServer.factorID)
        }
        try await harness.client.reauthenticate(recoveryCode: FakeLatchServer.initialRecoveryCodes[1])
        try await harness.client.removeTOTP(factorID: FakeLatchServer.factorID)
        let request = try #require(harness.server.allRequests.last)
        #expect(request.method == "DELETE")
        #expect(request.url.path == "/v1/mfa/totp/" + FakeLatchServer.factorID.uuidString.lowercased())
        #expect(request.body == nil)
        #expect(try await harness.client.mfaStatus() == MFAStatus(factors: [], recoveryCodesRemaining: 0))
        await #expect(throws: LatchError.factorNotFound) {
            try await harness.client.removeTOTP(factorID: FakeLatchServer.factorID)
        }
        #expect(await harness.client.currentUser != nil, "not a sign-out")
    }
}
