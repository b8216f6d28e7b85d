/// LatchHTTP's own refusals, raised before AuthCore is asked. `APIErrorMapper` turns them into responses.
///
/// Cases name a field at most, never a value from the request (which may be a password or a token).
public enum APIError: Error, Hashable, Sendable {
    /// A field of the JSON body is missing, null or of the wrong type. 422 `invalid_request`.
    case invalidField(String)
    /// A string field is longer than `maxBytes` UTF-8 bytes (refused before any hashing). 422 `invalid_request`.
    case fieldTooLong(String, maxBytes: Int)
    /// A string field holds a NUL character, which no credential needs and PostgreSQL text cannot store.
    /// 422 `invalid_request`.
    case fieldHasNUL(String)
    /// No `Authorization: Bearer …` header. 401 `missing_token`.
    case missingToken
    /// An `Authorization` header with the Bearer scheme but not the RFC 6750 shape (or sent twice).
    /// Answered like a forged one: 401 `invalid_token`.
    case malformedToken
    /// The readiness check failed (database unreachable, draining). 503 `not_ready`.
    case notReady
}
