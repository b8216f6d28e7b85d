import AuthCore
import Foundation
import Testing

/// The cursor of `GET /admin/v1/users` and the literal prefix pattern.
@Suite struct AdminUserQueryTests {
    @Test func aCursorRoundTripsExactlyAndIsOpaque() throws {
        let id = UserID(UUID(uuidString: "0F0E0D0C-0B0A-0908-0706-050403020100")!)
        let cursor = AdminUserCursor(createdAtMicroseconds: 1_733_456_789_123_456, id: id)
        #expect(AdminUserCursor(text: cursor.text) == cursor)
        #expect(TokenText.isBase64URL(cursor.text))
        #expect(AdminUserCursor(createdAt: Date(timeIntervalSince1970: 1.5), id: id).createdAtMicroseconds == 1_500_000)
    }

    @Test(arguments: [
        "", "!!!", "bm90IGEgY3Vyc29y", Base64URLText.encode(Data("12.not-a-uuid".utf8)),
        Base64URLText.encode(Data("12.0F0E0D0C-0B0A-0908-0706-050403020100".utf8)),
        Base64URLText.encode(Data("+12.0f0e0d0c-0b0a-0908-0706-050403020100".utf8)),
        Base64URLText.encode(Data("12.0f0e0d0c-0b0a-0908-0706-050403020100.1".utf8)),
        Base64URLText.encode(Data("12.0f0e0d0c-0b0a-0908-0706-050403020100".utf8)) + "=",
        String(repeating: "A", count: 200),
    ])
    func aBadCursorIsRefused(_ text: String) {
        #expect(AdminUserCursor(text: text) == nil)
    }

    @Test func thePrefixIsLiteralAndLowercased() {
        #expect(AdminUserQuery(limit: 1, emailPrefix: "A_b%c\\d").emailKeyPattern == #"a\_b\%c\\d%"#)
        #expect(AdminUserQuery(limit: 1, emailPrefix: "ann").emailKeyPattern == "ann%")
        #expect(AdminUserQuery(limit: 1).emailKeyPattern == nil)
    }
}
