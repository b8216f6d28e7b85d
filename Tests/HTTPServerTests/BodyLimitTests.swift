import HTTPServer
import LatchTestSupport
import Testing

@Suite struct BodyLimitTests {
    private static func server() throws -> TestServer {
        var router = Router()
        router.post("/upload") { request in .text("\(request.body.count)") }
        return try TestServer(router: router)
    }

    @Test func acceptsABodyOfExactlyTheLimit() throws {
        let server = try Self.server()
        let response = try server.send("POST", "/upload", body: [UInt8](repeating: 0x61, count: 64 * 1024))
        #expect(response.status == 200)
        #expect(response.text == "65536")
    }

    @Test func refusesALargerBodyByContentLength() throws {
        let server = try Self.server()
        let client = try server.client()
        let response = try client.send("POST", "/upload", body: [UInt8](repeating: 0x61, count: 65 * 1024))
        #expect(response.status == 413)
        #expect(try response.json(ErrorBody.self).error.code == "payload_too_large")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(client.serverClosed())
    }

    @Test func refusesALargerChunkedBodyWithoutKeepingIt() throws {
        let server = try Self.server()
        let client = try server.client()
        var request = Array("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<5 {
            request += Array("4000\r\n".utf8) + [UInt8](repeating: 0x62, count: 16 * 1024) + Array("\r\n".utf8)
        }
        request += Array("0\r\n\r\n".utf8)
        try client.write(request)
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(try response.json(ErrorBody.self).error.code == "payload_too_large")
        #expect(response.header("Connection")?.lowercased() == "close")
    }

    @Test func cutsOffAChunkedUploadThatNeverEnds() throws {
        let server = try Self.server()
        let client = try server.client()
        try client.write(Array("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let frame = Array("4000\r\n".utf8) + [UInt8](repeating: 0x62, count: 16 * 1024) + Array("\r\n".utf8)
        var writes = 0
        // Bounded: the server drops the connection after twice the limit, so writes soon fail.
        while writes < 2_000, (try? client.write(frame)) != nil {
            writes += 1
        }
        #expect(writes < 2_000)
        #expect(client.serverClosed())
    }

    @Test func smallChunkedBodyIsAccepted() throws {
        let server = try Self.server()
        let client = try server.client()
        try client.write(Array("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".utf8))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "5")
    }
}
