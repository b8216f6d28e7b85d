import Foundation
import LatchTestSupport

/// JSON requests to any instance by port, one connection each (for instances that are not a `TestApp`).
struct APIClient: Sendable {
    let port: Int

    func post(_ path: String, _ fields: [String: String], headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        return try client.sendJSON("POST", path, json: TestApp.body(fields), headers: headers)
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        return try client.send("GET", path, headers: headers)
    }

    /// A request whose answer must have `status`; its body decoded as `T`.
    func expect<T: Decodable>(_ status: Int, _ path: String, _ fields: [String: String],
                              headers: [(String, String)] = [], as type: T.Type) throws -> T {
        let response = try post(path, fields, headers: headers)
        guard response.status == status else { throw TestApp.FlowError.unexpected(response.status, response.text) }
        return try response.json(T.self)
    }
}
