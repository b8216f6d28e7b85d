/// The admin API's reads of `users` (`GET /admin/v1/users`). Implemented in LatchStore; a read port of its own, since
/// no flow of the service needs it.
public protocol AdminUserDirectory: Sendable {
    /// Up to `query.limit` users matching every filter, ordered by (created_at, id), after `query.after`.
    func adminUsers(_ query: AdminUserQuery) throws -> [AdminUserView]

    /// The user with this id, or nil.
    func adminUser(id: UserID) throws -> AdminUserView?
}
