import DeepLinkRouting
import Foundation
import Testing

@Suite struct DeepLinkConfigurationTests {
    @Test func acceptsProductionAndDevelopmentValues() {
        #expect(throws: Never.self) { try Fixtures.production.validate() }
        #expect(throws: Never.self) { try Fixtures.development.validate() }
        // And they are the values the other tests rely on, not something any configuration would pass with.
        #expect(Fixtures.production.linkBase.scheme == "https" && Fixtures.development.linkBase.scheme == "http")
    }

    @Test(arguments: ["", "my app", "1app", "https", "HTTP", "my/app"])
    func refusesBadSchemes(scheme: String) {
        let configuration = DeepLinkConfiguration(appScheme: scheme, linkBase: Fixtures.url("https://links.example.com"))
        #expect(throws: DeepLinkConfigurationError.invalidAppScheme(scheme)) { try configuration.validate() }
    }

    @Test(arguments: ["ftp://links.example.com", "https://links.example.com/?a=b", "https://u:p@links.example.com", "/relative"])
    func refusesBadLinkBases(base: String) {
        let configuration = DeepLinkConfiguration(appScheme: "myapp", linkBase: Fixtures.url(base))
        #expect(throws: DeepLinkConfigurationError.self) { try configuration.validate() }
    }
}
