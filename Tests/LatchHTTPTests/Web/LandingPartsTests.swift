import DeepLinkRouting
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// The small pieces behind the landing pages: origins, cookies, form bodies.
@Suite struct LandingPartsTests {
    @Test(arguments: [
        ("https://links.example.com", "https://links.example.com"),
        ("https://Links.Example.com:443/app", "https://links.example.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://localhost:80", "http://localhost"),
        ("https://[::1]:8443", "https://[::1]:8443"),
    ])
    func originsAreSerialisedAsBrowsersDo(url: String, origin: String) throws {
        #expect(CrossSiteGuard.origin(of: try #require(URL(string: url))) == origin)
    }

    @Test func twoOriginHeadersAreRefused() throws {
        let guardian = CrossSiteGuard(deepLinks: DeepLinkConfiguration(
            appScheme: "myapp", linkBase: try #require(URL(string: "https://links.example.com"))))
        var headers: HTTPHeaders = ["Origin": "https://links.example.com", "Sec-Fetch-Site": "same-origin"]
        #expect(guardian.allows(headers))
        headers.add(name: "Origin", value: "https://links.example.com")
        #expect(!guardian.allows(headers))
    }

    @Test func cookieValueIsReadFromAnyFieldButNotWhenPlantedTwice() {
        let cookie = CSRFCookie(secure: true)
        let value = String(repeating: "a", count: 43)
        let single: HTTPHeaders = ["Cookie": "a=1; __Host-latch_csrf=\(value); b=2"]
        #expect(cookie.value(in: single) == value)
        let split: HTTPHeaders = ["Cookie": "a=1", "Cookie": "__Host-latch_csrf=\(value)"]
        #expect(cookie.value(in: split) == value)
        let twice: HTTPHeaders = ["Cookie": "__Host-latch_csrf=\(value); __Host-latch_csrf=\(value)"]
        #expect(cookie.value(in: twice) == nil)
        let junk: HTTPHeaders = ["Cookie": "__Host-latch_csrf=<script>"]
        #expect(cookie.value(in: junk) == nil)
        // Another name, even a longer one, is not our cookie.
        let other: HTTPHeaders = ["Cookie": "x__Host-latch_csrf=\(value)"]
        #expect(cookie.value(in: other) == nil)
    }

    @Test func formBodiesDecodePercentAndPlus() throws {
        let request = HTTPRequest(method: .post, target: "/confirmAuth",
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: Array("a=x+y%2Bz%25&b=%E2%9C%93&c=&d=1&d=2".utf8))
        let form = try FormBody(request)
        #expect(try form.value("a", maxBytes: 100) == "x y+z%")
        #expect(try form.value("b", maxBytes: 100) == "✓")
        #expect(throws: FormBody.Problem.invalidField("c")) { try form.value("c", maxBytes: 100) }
        #expect(throws: FormBody.Problem.invalidField("d")) { try form.value("d", maxBytes: 100) }
        #expect(throws: FormBody.Problem.invalidField("a")) { try form.value("a", maxBytes: 3) }
        #expect(throws: FormBody.Problem.invalidField("e")) { try form.value("e", maxBytes: 100) }
    }

    @Test func formBodiesNeedTheFormMediaType() {
        let request = HTTPRequest(method: .post, target: "/confirmAuth", headers: ["Content-Type": "text/plain"],
                                  body: Array("a=b".utf8))
        #expect(throws: FormBody.Problem.unsupportedMediaType) { try FormBody(request) }
    }
}
