/// Hashes and verifies passwords. Implemented with Argon2id in LatchCrypto.
///
/// Calls are CPU-bound and slow on purpose (~20 ms); callers run them on a bounded pool.
public protocol PasswordHasher: Sendable {
    /// A PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) with a fresh random salt.
    func hash(_ password: String) throws -> String
    /// Whether `password` matches the PHC string. A malformed PHC string verifies as false.
    func verify(_ password: String, against phc: String) -> Bool
    /// Whether `phc` was made with other parameters than the configured ones, so it should be rehashed.
    func needsRehash(_ phc: String) -> Bool
}
