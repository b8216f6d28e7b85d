import CCurl
import CurlSupport
import Foundation
import TestKit
import Testing

@Suite struct CurlEasyTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer()
    }

    /// A GET of `path` with the answer captured up to `cap` bytes.
    private func get(_ path: String, cap: Int = 1 << 20) throws(CurlError) -> CurlResponse {
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, server.url(path))
        try easy.captureResponse(maxBodyBytes: cap)
        return try easy.perform()
    }

    @Test(arguments: [LoopbackServer.bodySize, LoopbackServer.bodySize + 1])
    func aBodyUpToTheCapIsReadWhole(cap: Int) throws {
        let answer = try get("/bytes", cap: cap)
        #expect(answer.status == 200)
        #expect(answer.body == LoopbackServer.body)
        #expect(!answer.truncated)
    }

    @Test(arguments: [LoopbackServer.bodySize - 1, 20_000, 1, 0])
    func aLongerBodyIsCutAtTheCapAndStillAnAnswer(cap: Int) throws {
        let answer = try get("/bytes", cap: cap)
        #expect(answer.status == 200)
        #expect(answer.body == LoopbackServer.body.prefix(cap))
        #expect(answer.truncated)
    }

    @Test func headerNamesAreLowercasedTheLastRepeatedValueKeptAndValuesTrimmed() throws {
        let headers = try get("/headers").headers
        #expect(headers["x-repeated"] == "second")
        #expect(headers["x-padded"] == "value with spaces")
        #expect(headers["X-Repeated"] == nil)
    }

    @Test func afterARedirectOnlyTheFinalAnswersHeadersRemain() throws {
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, server.url("/hop"))
        try easy.set(CURLOPT_FOLLOWLOCATION, 1)
        try easy.captureResponse(maxBodyBytes: 0)
        let answer = try easy.perform()
        #expect(answer.status == 200)
        #expect(answer.headers["x-repeated"] == "second")
        #expect(answer.headers["x-hop"] == nil)
        #expect(answer.headers["location"] == nil)
    }

    @Test(arguments: [Data(), Data([0, 1, 0, 255]), LoopbackServer.body.prefix(5000)])
    func aPostBodyIsSentByteForByte(body: Data) throws {
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, server.url("/echo"))
        // Without it curl waits for `100 Continue` before a body over 1 KiB.
        try easy.set(CURLOPT_HTTPHEADER, list: ["Expect:"])
        try easy.setPostBody(body)
        try easy.captureResponse(maxBodyBytes: 1 << 20)
        let answer = try easy.perform()
        #expect(answer.status == 200)
        #expect(answer.body == body)
    }

    @Test func noListenerIsATransferFailureWithCurlsCodeAndNoReply() throws {
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, "http://127.0.0.1:\(try freePort())/")
        try easy.captureResponse(maxBodyBytes: 0)
        let error = #expect(throws: CurlError.self) { try easy.perform() }
        guard case .transfer(let code, let message) = error else {
            Issue.record("not a transfer failure: \(String(describing: error))")
            return
        }
        #expect(code == Int(CURLE_COULDNT_CONNECT.rawValue))
        #expect(!message.isEmpty)
        #expect(error?.description == message)
        #expect(easy.responseCode == 0)
    }

    @Test func aMillisecondTimeoutEndsASlowTransfer() throws {
        let easy = try CurlEasy()
        try easy.set(CURLOPT_URL, server.url("/slow"))
        try easy.set(CURLOPT_TIMEOUT_MS, milliseconds: .milliseconds(100))
        try easy.captureResponse(maxBodyBytes: 0)
        let started = ContinuousClock.now
        let error = #expect(throws: CurlError.self) { try easy.perform() }
        #expect(ContinuousClock.now - started < .milliseconds(900))
        guard case .transfer(let code, _) = error else {
            Issue.record("not a transfer failure: \(String(describing: error))")
            return
        }
        #expect(code == Int(CURLE_OPERATION_TIMEDOUT.rawValue))
    }

    @Test func aRefusedOptionNamesItselfWithCurlsCode() throws {
        let easy = try CurlEasy()
        let unknown = CURLoption(rawValue: 9_999)
        let error = #expect(throws: CurlError.self) { try easy.set(unknown, 1) }
        let expected = CurlError.call(step: "option 9999", code: Int(CURLE_UNKNOWN_OPTION.rawValue),
                                      message: String(cString: curl_easy_strerror(CURLE_UNKNOWN_OPTION)))
        #expect(error == expected)
        #expect(error?.description == "option 9999: " + String(cString: curl_easy_strerror(CURLE_UNKNOWN_OPTION)))
    }

    @Test func anEmptyListIsASetupError() throws {
        let easy = try CurlEasy()
        #expect(throws: CurlError.setup("empty list for option \(CURLOPT_HTTPHEADER.rawValue)")) {
            try easy.set(CURLOPT_HTTPHEADER, list: [])
        }
    }
}
