/// The `deferred_mail` table: mails asked for by address, waiting to be resolved (`DeferredMail`).
public protocol DeferredMailQueue: Sendable {
    /// Queues `request`: the same single write whatever the address.
    func deferMail(_ request: DeferredMail) throws

    /// Removes and returns the oldest request no other transaction holds, or nil. Called inside a transaction,
    /// the removal commits with what the request led to, or is rolled back with it: a request is resolved once,
    /// never lost. Concurrent resolvers (several daemons) each take a different request.
    func takeDeferredMail() throws -> DeferredMail?
}
