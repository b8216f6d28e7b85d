import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

@Suite struct OffloadTests {
    @Test func offloadedRouteAnswersFromThePool() throws {
        let pool = WorkerPool(name: "test-offload", threads: 2, queueCapacity: 8)
        defer { pool.shutdown() }
        var router = Router()
        router.post("/hash/:id", pool: pool) { request in
            .json(["id": request.parameters["id"] ?? "", "thread": "\(UInt(pthread_self()))", "body": request.text])
        }
        router.get("/inline") { _ in .text("\(UInt(pthread_self()))") }
        // One MHD thread, so /inline names the thread every inline handler runs on.
        let server = try TestServer({ $0.threadCount = 1 }, router: router)
        let mhdThread = try server.send("GET", "/inline").text
        let client = try server.client()
        // Several on one connection: each resume must leave keep-alive intact.
        for index in 0..<3 {
            let response = try client.send("POST", "/hash/\(index)", body: Array("pw\(index)".utf8))
            #expect(response.status == 200)
            let json = try response.json([String: String].self)
            #expect(json["id"] == "\(index)")
            #expect(json["body"] == "pw\(index)")
            #expect(json["thread"] != mhdThread)
            #expect(response.header("Connection")?.lowercased() != "close")
        }
    }

    @Test func aSlowOffloadedRouteDoesNotBlockCheapRoutes() throws {
        let pool = WorkerPool(name: "test-slow", threads: 1, queueCapacity: 4)
        defer { pool.shutdown() }
        let gate = Gate()
        var router = Router()
        router.get("/slow", pool: pool) { _ in
            gate.pass()
            return .text("slow")
        }
        router.get("/cheap") { _ in .text("cheap") }
        // One MHD thread: if the slow handler held it, /cheap could not be answered.
        let server = try TestServer({ $0.threadCount = 1 }, router: router)
        let port = server.port
        let slow = Background { try HTTPTestClient(port: port).send("GET", "/slow") }
        #expect(gate.waitUntilEntered())
        let cheap = try server.send("GET", "/cheap")
        #expect(cheap.text == "cheap")
        gate.open()
        #expect(try slow.wait()?.text == "slow")
    }

    @Test func aFullQueueAnswers503WithRetryAfter() throws {
        let pool = WorkerPool(name: "test-full", threads: 1, queueCapacity: 1)
        defer { pool.shutdown() }
        let gate = Gate()
        var router = Router()
        router.get("/slow", pool: pool) { _ in
            gate.pass()
            return .text("done")
        }
        let server = try TestServer(router: router)
        let port = server.port
        let running = Background { try HTTPTestClient(port: port).send("GET", "/slow") }
        #expect(gate.waitUntilEntered())
        let queued = Background { try HTTPTestClient(port: port).send("GET", "/slow") }
        #expect(eventually { pool.pendingCount == 1 })

        let refused = try server.send("GET", "/slow")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(try refused.json(ErrorBody.self).error.code == "overloaded")

        gate.open(count: 2)
        #expect(try running.wait()?.text == "done")
        #expect(try queued.wait()?.text == "done")
    }
}

extension HTTPRequest {
    var text: String { String(decoding: body, as: UTF8.self) }
}
