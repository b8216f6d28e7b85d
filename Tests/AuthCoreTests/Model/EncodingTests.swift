import AuthCore
import Foundation
import Testing

/// Ids travel in JSON (`User`, the session list), so their encoding is part of the API.
@Suite struct EncodingTests {
    @Test func idsEncodeLowercase() throws {
        let id = UserID(try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"]")
        #expect(try JSONDecoder().decode([UserID].self, from: data) == [id])
    }
}
