import Foundation
@testable import HTTPServer
import LatchTestSupport
import TestKit
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
        #expect(eventually { server.server.isStopping })
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
        #expect(eventually { server.server.isStopping })
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

    @Test func requestsArrivingWhileStoppingGet503AndClose() throws {
        let pool = WorkerPool(name: "test-late", threads: 1, queueCapacity: 4)
        let gate = Gate()
        // Also when an expectation throws: the pool cannot shut down while its job waits at the gate.
        defer {
            gate.open()
            pool.shutdown()
        }
        var router = Router()
        router.get("/slow", pool: pool) { _ in
            gate.pass()
            return .text("finished")
        }
        router.get("/hello") { _ in .text("hello") }
        let server = try TestServer(router: router)
        let port = server.port
        let kept = try server.client()
        #expect(try kept.send("GET", "/hello").status == 200)
        let inFlight = Background { try HTTPTestClient(port: port).send("GET", "/slow") }
        #expect(gate.waitUntilEntered())
        let stopper = Background { server.server.stop(timeout: .seconds(15)) }
        #expect(eventually { server.server.isStopping })

        // A new connection and a kept-alive one: no handler starts once stop() has begun.
        // (server.port reads 0 once stopping; the socket still listens until the daemon stops.)
        for response in [try HTTPTestClient(port: port).send("GET", "/hello"), try kept.send("GET", "/hello")] {
            #expect(response.status == 503)
            #expect(try response.json(ErrorBody.self).error.code == "shutting_down")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(response.header("Retry-After") == "1")
        }
        #expect(!stopper.isFinished)
        gate.open()
        #expect(try inFlight.wait()?.text == "finished")
        #expect(try stopper.wait() != nil)
    }

    @Test func anUploadUnderWayWhenStopBeginsIsStillServed() throws {
        var router = Router()
        router.post("/upload") { request in .text("\(request.body.count)") }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.write(Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n".utf8))
        // libmicrohttpd sends 100 Continue once the handler has seen the headers: the request is admitted.
        #expect(try client.readResponse(headOnly: true).status == 100)
        let stopper = Background { server.server.stop(timeout: .seconds(15)) }
        #expect(eventually { server.server.isStopping })
        #expect(!stopper.isFinished, "stop() waits for the admitted request")
        try client.write(Array("abcd".utf8))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "4")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(try stopper.wait() != nil)
    }

    @Test func aLibmicrohttpdPanicReachesTheInstalledHandlerWithItsLocation() throws {
        let reported = Locked<[HTTPServerPanic]>([])
        HTTPServer.setPanicHandler { panic in reported.update { $0.append(panic) } }
        // Process-wide: a real panic later in this run must still be printed before the abort.
        defer {
            HTTPServer.setPanicHandler { panic in
                FileHandle.standardError.write(Data("Fatal error in GNU libmicrohttpd \(panic)\n".utf8))
            }
        }
        // The C callback itself aborts after reporting, so the test calls the part before the abort.
        let panic = MHDPanic.report(file: "daemon.c", line: 5531, reason: "Failed to remove listen FD from epoll set.\n")
        #expect(panic == HTTPServerPanic(file: "daemon.c", line: 5531, reason: "Failed to remove listen FD from epoll set."))
        #expect(reported.value == [panic])
        #expect(panic.description == "daemon.c:5531: Failed to remove listen FD from epoll set.")
    }
}
