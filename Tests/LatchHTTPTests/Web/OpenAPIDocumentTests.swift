import AuthCore
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// `openapi.yaml` describes exactly the routes latchd registers, and only error codes the server can send.
/// Read with a small line-based reader (Foundation has no YAML parser): the document keeps block style for keys.
@Suite struct OpenAPIDocumentTests {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi.yaml")

    struct Route: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }
    }

    static func document() throws -> String {
        try String(contentsOf: documentURL, encoding: .utf8)
    }

    /// Every (method, path) under `paths:`: path keys indented 2 spaces, operation keys 4.
    static func documentedRoutes(_ text: String) -> Set<Route> {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var routes = Set<Route>()
        var inPaths = false
        var currentPath: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.hasPrefix("#"), !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths, line.hasSuffix(":") else { continue }
            let indent = line.prefix { $0 == " " }.count
            let key = line.dropFirst(indent).dropLast().trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            if indent == 2 {
                currentPath = key
            } else if indent == 4, methods.contains(key), let path = currentPath {
                routes.insert(Route(method: key.uppercased(), path: path))
            }
        }
        return routes
    }

    /// Every code in an `enum: [...]` of an error response (the `code` property's).
    static func documentedErrorCodes(_ text: String) -> Set<String> {
        var codes = Set<String>()
        let lines = text.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where index > 0 && lines[index - 1].hasSuffix("code:") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("enum: ["), trimmed.hasSuffix("]") else { continue }
            let list = trimmed.dropFirst("enum: [".count).dropLast()
            codes.formUnion(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return codes
    }

    static var registeredRoutes: Set<Route> {
        Set((LatchAPI.routes + WebRoutes.routes).map { Route(method: $0.method.rawValue, path: $0.path) })
    }

    @Test func everyRegisteredRouteIsDocumented() throws {
        let documented = Self.documentedRoutes(try Self.document())
        let missing = Self.registeredRoutes.subtracting(documented)
        #expect(missing.isEmpty, "not in openapi.yaml: \(missing.sorted { $0.description < $1.description })")
    }

    @Test func everyDocumentedRouteIsRegistered() throws {
        let documented = Self.documentedRoutes(try Self.document())
        #expect(documented.count >= 17)
        // The API document describes the API's port; /metrics is on the metrics listener, not here.
        #expect(!documented.contains { $0.path == "/metrics" })
        let extra = documented.subtracting(Self.registeredRoutes)
        #expect(extra.isEmpty, "not registered: \(extra.sorted { $0.description < $1.description })")
    }

    @Test func theRegisteredRoutesAreTheOnesTheRouterAnswers() throws {
        let web = try WebHarness()
        for route in Self.registeredRoutes {
            let response = web.send(HTTPMethod(rawValue: route.method), route.path)
            #expect(response.status != .notFound && response.status != .methodNotAllowed, "\(route)")
        }
    }

    @Test func documentedErrorCodesAreExactlyThoseTheServerSends() throws {
        let documented = Self.documentedErrorCodes(try Self.document())
        let authErrors: [AuthError] = [
            .invalidEmail, .weakPassword(.passwordTooShort), .invalidCredentials, .emailNotConfirmed, .userDisabled,
            .invalidToken, .tokenExpired, .tokenUsed, .tokenSuperseded, .alreadyConfirmed, .rateLimited(retryAfter: 1),
            .invalidSession, .sessionExpired,
            .refreshTokenReused, .invalidAccessToken,
        ]
        let apiErrors: [any Error] = [
            APIError.invalidField("f"), APIError.missingToken, APIError.notReady, JSONBodyError.unsupportedMediaType,
            JSONBodyError.malformed, NotOurs(),
        ]
        let mapped = Set((authErrors + apiErrors).map { APIErrorMapper.describe($0).code })
        // Answered by HTTPServer itself: the body limit and a full hashing pool.
        let server: Set<String> = ["payload_too_large", "overloaded"]
        #expect(documented == mapped.union(server))
    }

    @Test func theDocumentDeclaresVersionAndBearerScheme() throws {
        let text = try Self.document()
        #expect(text.contains("\nopenapi: 3.1.0\n"))
        #expect(text.contains("    bearer:\n      type: http\n      scheme: bearer\n"))
    }

    private struct NotOurs: Error {}
}
