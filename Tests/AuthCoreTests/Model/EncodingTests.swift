import AuthCore
import Foundation
import Testing

/// The HTTP layer encodes these values as they are, so their JSON keys are part of the API.
@Suite struct EncodingTests {
    @Test func issuedSessionAndUserUseSnakeCaseKeysAndNoHash() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try #require(String(data: try encoder.encode(issued), encoding: .utf8))
        for key in ["access_token", "refresh_token", "token_type", "access_token_expires_at",
                    "refresh_token_expires_at", "confirmed_at", "created_at", "\"email\"", "\"id\""] {
            #expect(json.contains(key))
        }
        #expect(json.contains("\"bearer\""))
        #expect(json.contains(issued.user.id.description))
        #expect(!json.contains(try #require(h.user()).passwordHash))
        #expect(try JSONDecoder().decode(IssuedSession.self, from: encoder.encode(issued)) == issued)
    }

    @Test func idsEncodeLowercase() throws {
        let id = UserID(try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"]")
        #expect(try JSONDecoder().decode([UserID].self, from: data) == [id])
    }
}
