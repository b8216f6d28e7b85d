import Foundation

/// The session answer of confirm, sign-in and refresh, as a client reads it.
struct SessionJSON: Decodable, Sendable {
    struct UserJSON: Decodable, Sendable {
        let id: String
        let email: String
        let confirmed_at: String?
    }

    let access_token: String
    let refresh_token: String
    let token_type: String
    let refresh_token_expires_at: String
    let user: UserJSON
    /// Sign-in only.
    let device_token: String?

    var bearer: [(String, String)] { [("Authorization", "Bearer \(access_token)")] }
}
