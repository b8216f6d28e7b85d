import Foundation
@testable import Mailer
import TestKit
import Testing

@Suite struct SMTPTransportTests {
    @Test func sendToAClosedPortFailsWithATypedError() throws {
        let port = try freePort()  // closed again at once: nothing listens on it
        let transport = try SMTPTransport(
            url: "smtp://127.0.0.1:\(port)", connectTimeout: .seconds(2), timeout: .seconds(5)
        )
        do {
            try transport.send(try Fixtures.message())
            Issue.record("send to a closed port succeeded")
        } catch let error as MailError {
            guard case .smtp(let code, let message, let reply) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(code == 7) // CURLE_COULDNT_CONNECT
            #expect(!message.isEmpty)
            #expect(reply == 0)
            #expect(!error.isPermanent)
        }
    }

    @Test func endpointParsesSchemesOptionsAndCredentials() throws {
        let plain = try SMTPEndpoint(parsing: "smtp://127.0.0.1:2525")
        #expect(plain.curlURL == "smtp://127.0.0.1:2525" && plain.security == .none && plain.username == nil)
        let tls = try SMTPEndpoint(parsing: "smtps://mail.example.com")
        #expect(tls.security == .implicitTLS)
        let starttls = try SMTPEndpoint(parsing: "smtp://u%40x:p%3Ass@mail.example.com:587/helo.example.com?starttls=required")
        #expect(starttls.security == .startTLSRequired)
        #expect(starttls.curlURL == "smtp://mail.example.com:587/helo.example.com")
        #expect(starttls.username == "u@x" && starttls.password == "p:ss")
        #expect(!starttls.description.contains("p:ss") && !starttls.description.contains("p%3Ass"))
        #expect(try SMTPEndpoint(parsing: "smtp://h?starttls=optional").security == .startTLSOptional)
        #expect(try SMTPEndpoint(parsing: "smtps://u:p@mail.example.com").username == "u")
        #expect(try SMTPEndpoint(parsing: "smtp://u:p@127.0.0.1:2525").password == "p")
    }

    @Test(arguments: [
        "http://mail.example.com", "smtp://", "smtps://h?starttls=required", "smtp://h?starttls=yes",
        "smtp://h?tls=1", "not a url", "mail.example.com:25", "smtp://u:p@mail.example.com:587",
        "smtp://u:p@mail.example.com:587/?starttls=optional", "smtp://:p@127.0.0.1:25",
    ])
    func endpointRejectsBadURLs(url: String) {
        #expect(throws: MailError.self) { try SMTPEndpoint(parsing: url) }
    }
}
