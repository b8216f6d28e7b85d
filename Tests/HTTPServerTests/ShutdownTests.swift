import Foundation
import HTTPServer
import LatchTestSupport
import Testing

@Suite struct ShutdownTests {
    @Test func stopLetsAnInFlightOffloadedRequestFinish() throws {
        let pool = WorkerPool(name: "test-drain", threads: 1, queueCapacity: 4)
        defer { pool.shutdown() }
        let gate = Gate()
        var router = Router()
        router.get("/slow", pool: pool) { _ in
            gate.pass()
            return .text("finished")
        }
        let server = try TestServer(router: router)
        let port = server.port
        let inFlight = Background { try HTTPTestClient(port: port).send("GET", "/slow") }
        #expect(gate.waitUntilEntered())
        let stopper = Background { server.server.stop(timeout: .seconds(15)) }
        #expect(waitUntil { server.server.isStopping })
        // stop() must be waiting for the handler, which cannot finish before the gate opens.
        #expect(!stopper.isFinished)
        gate.open()
        let response = try #require(try inFlight.wait())
        #expect(response.status == 200)
        #expect(response.text == "finished")
        // Answers sent while draining close their connection, so clients go elsewhere.
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(try stopper.wait() != nil)
        #expect(server.server.port == 0)
    }

    @Test func stopLetsAnInFlightInlineRequestFinish() throws {
        let gate = Gate()
        var router = Router()
        router.get("/slow") { _ in
            gate.pass()
            return .text("inline")
        }
        let server = try TestServer(router: router)
        let port = server.port
        let inFlight = Background { try HTTPTestClient(port: port).send("GET", "/slow") }
        #expect(gate.waitUntilEntered())
        let stopper = Background { server.server.stop(timeout: .seconds(15)) }
        #expect(waitUntil { server.server.isStopping })
        // stop() must be waiting for the handler, which cannot finish before the gate opens.
        #expect(!stopper.isFinished)
        gate.open()
        #expect(try inFlight.wait()?.text == "inline")
        #expect(try stopper.wait() != nil)
    }

    @Test func stopAfterTheTimeoutAnswersOffloadedRequestsWith503() throws {
        let pool = WorkerPool(name: "test-timeout", threads: 1, queueCapacity: 4)
        let gate = Gate()
        var router = Router()
        router.get("/stuck", pool: pool) { _ in
            gate.pass()
            return .text("too late")
        }
        let server = try TestServer(router: router)
        let port = server.port
        let inFlight = Background { try HTTPTestClient(port: port).send("GET", "/stuck") }
        #expect(gate.waitUntilEntered())
        server.server.stop(timeout: .milliseconds(50))
        let response = try #require(try inFlight.wait())
        #expect(response.status == 503)
        #expect(try response.json(ErrorBody.self).error.code == "shutting_down")
        // The job finishing after the daemon is gone must not touch the freed connection.
        gate.open()
        pool.shutdown()
    }

    @Test func stopIsSafeTwiceAndBeforeStart() throws {
        let idle = HTTPServer(configuration: HTTPServerConfiguration(port: 0), responder: Router())
        idle.stop()
        var router = Router()
        router.get("/") { _ in .text("up") }
        let server = try TestServer(router: router)
        #expect(try server.send("GET", "/").text == "up")
        server.server.stop(timeout: .seconds(1))
        server.server.stop(timeout: .seconds(1))
        #expect(throws: HTTPServerError.alreadyStarted) { try server.server.start() }
    }
}
