import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

@Suite struct ConnectionTests {
    @Test func servesManyConcurrentClientsCorrectly() throws {
        var router = Router()
        router.get("/echo/:value") { request in .text(request.parameters["value"] ?? "") }
        let server = try TestServer(router: router)
        let port = server.port
        let workers = (0..<32).map { worker in
            Background { () throws -> Int in
                let client = try HTTPTestClient(port: port)
                var correct = 0
                for index in 0..<50 {
                    let response = try client.send("GET", "/echo/\(worker)-\(index)")
                    if response.status == 200, response.text == "\(worker)-\(index)" { correct += 1 }
                }
                return correct
            }
        }
        let results = try workers.map { try $0.wait() }
        #expect(results == Array(repeating: 50, count: 32))
    }

    @Test func capsConnectionsPerIP() throws {
        var router = Router()
        router.get("/") { _ in .text("ok") }
        let server = try TestServer({ $0.maxConnectionsPerIP = 2 }, router: router)
        let first = try server.client()
        let second = try server.client()
        #expect(try first.send("GET", "/").status == 200)
        #expect(try second.send("GET", "/").status == 200)

        // The kernel completes the handshake; MHD then closes the extra connection unserved.
        let third = try server.client()
        #expect(throws: HTTPTestClient.Failure.connectionClosed) { try third.send("GET", "/") }

        second.close()
        // Once a slot frees up, a new connection is served again.
        #expect(eventually { (try? server.send("GET", "/"))?.status == 200 })
        #expect(try first.send("GET", "/").status == 200)
    }

    @Test func refusesConnectionsPastTheBudgetAtOnceAndCountsThem() throws {
        var router = Router()
        router.get("/") { _ in .text("ok") }
        let server = try TestServer({ $0.maxConnections = 4 }, router: router)
        var held: [HTTPTestClient] = []
        for _ in 0..<4 {
            let client = try server.client()
            #expect(try client.send("GET", "/").status == 200)
            held.append(client)
        }
        #expect(server.server.statistics.openConnections == 4)

        // Closed right after accept, not left waiting in the listen backlog until the client gives up.
        let extra = try HTTPTestClient(port: server.port, timeout: .seconds(30))
        let start = ContinuousClock.now
        #expect(throws: HTTPTestClient.Failure.connectionClosed) { try extra.send("GET", "/") }
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(server.server.statistics.refusedConnections == 1)

        held.removeFirst().close()
        #expect(eventually { (try? server.send("GET", "/"))?.status == 200 }, "a freed place is used again")
        #expect(server.server.statistics.maxConnections == 4)
    }
}
