import PostgresClient

extension PostgresError {
    /// The constraint a server error names, if any (e.g. `users_email_key`).
    var constraint: String? {
        if case .server(let error) = self { return error.constraint }
        return nil
    }
}
