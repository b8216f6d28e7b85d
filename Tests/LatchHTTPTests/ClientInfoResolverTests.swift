import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct ClientInfoResolverTests {
    private func request(peer: String = "10.1.2.3", _ headers: (String, String)...) -> HTTPRequest {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name: name, value: value) }
        return HTTPRequest(method: .post, target: "/v1/signin", headers: fields, clientAddress: peer)
    }

    @Test func withoutTrustProxyTheHeaderIsIgnored() {
        let resolver = ClientInfoResolver(trustProxy: false)
        #expect(resolver.clientIP(request(("X-Forwarded-For", "198.51.100.9"))) == "10.1.2.3")
    }

    @Test func withTrustProxyTheLastEntryWins() {
        let resolver = ClientInfoResolver(trustProxy: true)
        #expect(resolver.clientIP(request(("X-Forwarded-For", "1.1.1.1, 198.51.100.9"))) == "198.51.100.9")
        #expect(resolver.clientIP(request(("X-Forwarded-For", "1.1.1.1"), ("x-forwarded-for", " 2001:db8::1 ")))
            == "2001:db8::1")
        #expect(resolver.clientIP(request(("X-Forwarded-For", "[2001:db8::2]"))) == "2001:db8::2")
    }

    @Test func withTrustProxyJunkFallsBackToThePeer() {
        let resolver = ClientInfoResolver(trustProxy: true)
        #expect(resolver.clientIP(request(("X-Forwarded-For", "198.51.100.9, not-an-ip"))) == "10.1.2.3")
        #expect(resolver.clientIP(request(("X-Forwarded-For", "198.51.100.9,"))) == "10.1.2.3")
        #expect(resolver.clientIP(request(("X-Forwarded-For", "999.1.1.1"))) == "10.1.2.3")
        #expect(resolver.clientIP(request()) == "10.1.2.3")
    }

    @Test func unknownPeerIsNil() {
        #expect(ClientInfoResolver(trustProxy: false).clientIP(request(peer: "")) == nil)
    }

    @Test func userAgentIsCutTo512Characters() {
        let resolver = ClientInfoResolver(trustProxy: false)
        let long = String(repeating: "é", count: 600)
        #expect(resolver.resolve(request(("User-Agent", long))).userAgent?.count == 512)
        #expect(resolver.resolve(request(("User-Agent", "curl/8"))).userAgent == "curl/8")
        #expect(resolver.resolve(request()).userAgent == nil)
    }
}
