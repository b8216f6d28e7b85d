import DeepLinkRouting
import Foundation
import Testing

@Suite struct DeepLinkConfigurationTests {
    @Test func acceptsProductionAndDevelopmentValues() throws {
        try Fixtures.production.validate()
        try Fixtures.development.validate()
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
