import HTTPServer

/// How one error is answered: what `APIErrorMapper` decided, before it is encoded.
public struct APIErrorDescription: Hashable, Sendable {
    public var status: HTTPStatus
    /// Stable snake_case code.
    public var code: String
    /// Safe to show: never a token, password, hash, or detail of an internal failure.
    public var message: String
    /// The broken password rule for `weak_password` (e.g. `password_too_short`), else nil.
    public var reason: String?
    /// Seconds for the `Retry-After` header (429), else nil.
    public var retryAfter: Int?
    /// Value of the `WWW-Authenticate` header (401 on bearer and refresh failures), else nil.
    public var wwwAuthenticate: String?
    /// False for errors the mapper did not recognise (store failures): worth logging.
    public var isExpected: Bool

    public init(
        status: HTTPStatus, code: String, message: String, reason: String? = nil, retryAfter: Int? = nil,
        wwwAuthenticate: String? = nil, isExpected: Bool = true
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
        self.retryAfter = retryAfter
        self.wwwAuthenticate = wwwAuthenticate
        self.isExpected = isExpected
    }
}
