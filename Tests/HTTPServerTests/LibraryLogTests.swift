import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// libmicrohttpd's own messages reach `onLibraryMessage` (`LibraryLog`), not standard error.
@Suite struct LibraryLogTests {
    @Test func clientsLeavingMidRequestAreReportedThroughTheSink() throws {
        let messages = Locked<[String]>([])
        var router = Router()
        router.get("/") { _ in .text("ok") }
        let server = HTTPServer(
            // A short header deadline bounds the wait for a connection whose end libmicrohttpd missed
            // (`AbortedRequests`): the deadline closes it, and then it is reported.
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2, headerTimeout: .seconds(2)),
            responder: router,
            onLibraryMessage: { message in messages.update { $0.append(message) } })
        try server.start()
        defer { server.stop(timeout: .seconds(2)) }

        let aborted = AbortedRequests.burst(port: server.port, count: 50, batch: 50)
        #expect(aborted == 50)
        // libmicrohttpd 0.9.75 reports each aborted connection once; waiting (bounded) for all of them keeps the
        // checks below from racing its threads, which ask only that some arrived.
        _ = eventually { messages.value.count >= aborted }

        let received = messages.value
        #expect(!received.isEmpty, "no libmicrohttpd message reached the sink")
        // Worded one of two ways, depending on how libmicrohttpd noticed the end ("…closed by remote side with
        // incomplete request.", "…closed when reading request due to the error: detected connection closure").
        #expect(received.contains { $0.contains("closed") }, "\(Set(received))")
        #expect(!received.contains { $0.contains("%") }, "formatted, not the bare format: \(Set(received))")
        #expect(received.allSatisfy { !$0.isEmpty && $0.last?.isNewline == false }, "trailing newline trimmed")
        // The server is unharmed by the burst.
        #expect(try HTTPTestClient(port: server.port).send("GET", "/").status == 200)
    }

    @Test func aServerWithoutASinkStillServesThroughABurstOfAbortedRequests() throws {
        var router = Router()
        router.get("/") { _ in .text("ok") }
        let server = try TestServer(router: router)
        #expect(AbortedRequests.burst(port: server.port, count: 20) == 20)
        #expect(try server.send("GET", "/").status == 200)
    }
}
