import AuthCore
import Foundation
import LatchHTTP
import Testing

/// The answer of sign-in, confirm and refresh: its JSON keys are part of the API.
@Suite struct SessionResponseTests {
    static func issued(deviceToken: String?) -> IssuedSession {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        return IssuedSession(
            accessToken: "access-text", refreshToken: "refresh-text", accessTokenExpiresAt: now.addingTimeInterval(900),
            refreshTokenExpiresAt: now.addingTimeInterval(86_400),
            user: User(id: UserID(), email: "alice@example.com", confirmedAt: now, createdAt: now),
            deviceToken: deviceToken)
    }

    @Test func usesSnakeCaseKeysAndRoundTrips() throws {
        let issued = Self.issued(deviceToken: "device-text")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(SessionResponse(issued))
        let json = try #require(String(data: data, encoding: .utf8))
        for key in ["access_token", "refresh_token", "token_type", "access_token_expires_at",
                    "refresh_token_expires_at", "confirmed_at", "created_at", "device_token", "\"email\"", "\"id\""] {
            #expect(json.contains(key))
        }
        #expect(json.contains("\"bearer\""))
        #expect(json.contains(issued.user.id.description))
        #expect(try JSONDecoder().decode(SessionResponse.self, from: data) == SessionResponse(issued))
    }

    @Test func leavesOutTheDeviceTokenWhenThereIsNone() throws {
        let json = String(decoding: try JSONEncoder().encode(SessionResponse(Self.issued(deviceToken: nil))), as: UTF8.self)
        #expect(!json.contains("device_token"))
    }
}
