import AuthCore
import Foundation
import HTTPServer
import TestKit

/// A provider's endpoints on loopback: the JWKS at `/keys` (with the `Cache-Control` set), and token endpoints at
/// `/token` and `/revoke` that record the forms posted and answer what the test says. Counts the JWKS fetches.
final class FakeProvider: Sendable {
    struct Answer: Sendable {
        var status: HTTPStatus
        var body: String
    }

    let jwks: Locked<[[String: String]]>
    let cacheControl = Locked<String?>(nil)
    let jwksStatus = Locked<HTTPStatus>(.ok)
    let fetches = Locked(0)
    let forms = Locked<[[String: String]]>([])
    let tokenAnswer = Locked(Answer(status: .ok, body: #"{"refresh_token":"r-123","access_token":"a"}"#))
    private let server: HTTPServer
    /// Kept: the server reports 0 once stopped, and the URLs must stay what they were.
    let base: URL

    init(keys: [[String: String]]) throws {
        jwks = Locked(keys)
        var router = Router()
        router.get("/keys") { [jwks, cacheControl, jwksStatus, fetches] _ in
            fetches.update { $0 += 1 }
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            if let value = cacheControl.value { headers.add(name: "Cache-Control", value: value) }
            let body = try JSONSerialization.data(withJSONObject: ["keys": jwks.value])
            return HTTPResponse(status: jwksStatus.value, headers: headers, body: Array(body))
        }
        for path in ["/token", "/revoke"] {
            router.post(path) { [forms, tokenAnswer] request in
                forms.update { $0.append(Self.form(request.body)) }
                let answer = tokenAnswer.value
                return HTTPResponse(status: answer.status, headers: ["Content-Type": "application/json"],
                                    body: Array(answer.body.utf8))
            }
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2),
                            responder: router)
        try server.start()
        base = URL(string: "http://127.0.0.1:\(server.port)")!
    }

    deinit { server.stop(timeout: .seconds(2)) }

    var jwksURL: URL { base.appendingPathComponent("keys") }

    func stop() {
        server.stop(timeout: .seconds(2))
    }

    /// Apple as configured against this server.
    func provider(audiences: [String] = [TokenMinter.audience]) -> IdentityProvider {
        .apple(audiences: audiences, jwksURL: jwksURL, tokenRevocation: ProviderTokenRevocation(
            tokenURL: base.appendingPathComponent("token"), revokeURL: base.appendingPathComponent("revoke")))
    }

    /// A form body read strictly: `name=value` pairs, percent-decoded, `+` taken as itself.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let name = parts[0].removingPercentEncoding,
                  let value = parts[1].removingPercentEncoding
            else { continue }
            fields[name] = value
        }
        return fields
    }
}

/// A clock the test moves.
final class TestClock: WallClock {
    private let time: Locked<Date>

    init(_ start: Date = TokenMinter.now) {
        time = Locked(start)
    }

    func now() -> Date { time.value }

    func advance(_ seconds: TimeInterval) {
        time.update { $0.addTimeInterval(seconds) }
    }
}
