import Foundation
import Testing
import Webhooks

@Suite struct AddressPolicyTests {
    @Test(arguments: [
        "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "169.254.0.1", "127.0.0.1", "127.8.9.10", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:10.0.0.1",
        "::ffff:127.0.0.1", "::ffff:169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "::",
        "224.0.0.1", "ff02::1", "::10.0.0.1", "64:ff9b::a00:1",
    ])
    func forbiddenAddressesAreRefused(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressPolicy().refusal(of: address) != nil)
    }

    @Test(arguments: [
        "8.8.8.8", "2001:4860::1", "2001:4860:4860::8888", "172.32.0.1", "172.15.255.255", "100.128.0.1",
        "192.169.0.1", "1.1.1.1", "::ffff:8.8.8.8", "64:ff9b::808:808",
    ])
    func publicAddressesAreAllowed(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressPolicy().refusal(of: address) == nil)
    }

    @Test func anAllowedNetworkLetsItsAddressesThroughAndNoOthers() throws {
        let policy = try #require(AddressPolicy(allowingList: "10.1.0.0/16, fd00::/8"))
        #expect(policy.refusal(of: IPAddress("10.1.2.3")!) == nil)
        #expect(policy.refusal(of: IPAddress("::ffff:10.1.2.3")!) == nil)
        #expect(policy.refusal(of: IPAddress("fd00::5")!) == nil)
        #expect(policy.refusal(of: IPAddress("10.2.0.1")!) != nil)
        #expect(policy.refusal(of: IPAddress("127.0.0.1")!) != nil)
        #expect(AddressPolicy(allowingList: "")?.allowed == [])
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0.0/", "nonsense", "10.0.0.0/8,bad", "::/129", "10.0.0.0/-1", "1.2.3/8"])
    func malformedNetworksAreRefused(_ list: String) {
        #expect(AddressPolicy(allowingList: list) == nil)
    }

    @Test func metadataAddressIsNamed() {
        #expect(AddressPolicy().refusal(of: IPAddress("169.254.169.254")!)?.contains("metadata") == true)
    }

    @Test func onlyHTTPSUnlessLoopbackHTTPIsAllowed() throws {
        let strict = WebhookTargetPolicy()
        #expect(try strict.check(URL(string: "https://hooks.example.com/x?token=1")!) == false)
        for url in ["http://hooks.example.com/", "http://localhost:8080/", "ftp://example.com/", "file:///etc/passwd",
                    "https://user:pw@example.com/"] {
            #expect(throws: WebhookRefusal.self, "\(url)") { try strict.check(URL(string: url)!) }
        }
        let development = WebhookTargetPolicy.loopbackDevelopment()
        for url in ["http://localhost:8080/", "http://127.0.0.1/", "http://[::1]:9/", "http://hooks.localhost/"] {
            #expect(try development.check(URL(string: url)!) == true, "\(url)")
        }
        #expect(throws: WebhookRefusal.self) { try development.check(URL(string: "http://example.com/")!) }
        #expect(throws: WebhookRefusal.self) { try development.check(URL(string: "http://10.0.0.1/")!) }
    }

    @Test func plainHTTPReachesOnlyLoopbackAddresses() {
        let policy = WebhookTargetPolicy.loopbackDevelopment(allowing: [IPNetwork("10.0.0.0/8")!])
        #expect(policy.refusal(of: IPAddress("127.0.0.1")!, plainHTTP: true) == nil)
        #expect(policy.refusal(of: IPAddress("10.0.0.1")!, plainHTTP: true) != nil)
        #expect(policy.refusal(of: IPAddress("10.0.0.1")!, plainHTTP: false) == nil)
        #expect(policy.refusal(of: IPAddress("8.8.8.8")!, plainHTTP: true) != nil)
    }

    @Test func addressesPrintAsTheyAreWritten() {
        #expect(IPAddress("::ffff:10.0.0.1")?.description == "10.0.0.1")
        #expect(IPAddress("2001:4860::1")?.description == "2001:4860::1")
        #expect(IPNetwork("10.0.0.0/8")?.description == "10.0.0.0/8")
    }
}
