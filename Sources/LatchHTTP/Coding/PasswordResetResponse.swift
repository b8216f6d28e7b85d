import AuthCore

/// `{"status":"password_reset","user":{…}}`: the reset worked and every session of `user` was revoked.
struct PasswordResetResponse: Encodable {
    let status = "password_reset"
    let user: User
}
