import AuthCore
import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct SignUpRoutesTests {
    @Test func signUpAnswersIdenticallyForNewAndKnownEmails() throws {
        let api = try APIHarness()
        let first = api.post("/v1/signup", #"{"email":"ada@example.com","password":"correct horse"}"#)
        let again = api.post("/v1/signup", #"{"email":"ada@example.com","password":"other horse 2"}"#)
        #expect(first.status == .accepted)
        #expect(first.text == #"{"status":"confirmation_sent"}"#)
        #expect(again.status == first.status)
        #expect(again.body == first.body)
        #expect(again.headers["Cache-Control"] == "no-store")
        // A second sign-up before confirming: the mailbox gets a choose-your-password link, the caller no hint.
        #expect(api.store.mails.map(\.kind) == [.confirmEmail, .finishSignUp])
    }

    @Test func weakPasswordIs422WithReason() throws {
        let api = try APIHarness()
        let response = api.post("/v1/signup", #"{"email":"ada@example.com","password":"short"}"#)
        #expect(response.status == .unprocessableContent)
        let error = try #require(try response.jsonObject()["error"] as? [String: Any])
        #expect(error["code"] as? String == "weak_password")
        #expect(error["reason"] as? String == "password_too_short")
    }

    @Test func invalidEmailIs422() throws {
        let api = try APIHarness()
        let response = api.post("/v1/signup", #"{"email":"not-an-email","password":"correct horse"}"#)
        #expect(response.status == .unprocessableContent)
        #expect(response.errorCode == "invalid_email")
    }

    @Test func rateLimitIs429WithRetryAfter() throws {
        let limits = AuthRateLimits(signUpPerIP: RateLimitRule(limit: 1, window: 60))
        let api = try APIHarness(rateLimits: limits)
        #expect(api.post("/v1/signup", #"{"email":"a1@example.com","password":"correct horse"}"#).status == .accepted)
        let limited = api.post("/v1/signup", #"{"email":"a2@example.com","password":"correct horse"}"#)
        #expect(limited.status == .tooManyRequests)
        #expect(limited.errorCode == "rate_limited")
        let seconds = try #require(limited.headers["Retry-After"].flatMap(Int.init))
        #expect((1...60).contains(seconds))
    }

    @Test func rateLimitKeyFollowsTheForwardedAddressOnlyWhenTrusted() throws {
        let limits = AuthRateLimits(signUpPerIP: RateLimitRule(limit: 1, window: 60))
        for trust in [false, true] {
            let api = try APIHarness(trustProxy: trust, rateLimits: limits)
            for (index, forwarded) in ["198.51.100.1", "198.51.100.2"].enumerated() {
                var headers = HTTPHeaders()
                headers.add(name: "X-Forwarded-For", value: forwarded)
                let response = api.send(.post, "/v1/signup",
                                        json: #"{"email":"u\#(index)@example.com","password":"correct horse"}"#,
                                        headers: headers)
                // Trusted: two client addresses, two buckets. Untrusted: one peer, so the second is limited.
                #expect(response.status == (trust || index == 0 ? .accepted : .tooManyRequests), "trust \(trust)")
            }
        }
    }

    @Test func storeFailureIsAGeneric503AndReported() throws {
        let api = try APIHarness()
        api.store.setFailing(true)
        let response = api.post("/v1/signup", #"{"email":"ada@example.com","password":"correct horse"}"#)
        #expect(response.status == .serviceUnavailable)
        #expect(response.errorCode == "service_unavailable")
        #expect(!response.text.contains("hunter2"))
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(api.reported.value == ["/v1/signup"])
    }
}
