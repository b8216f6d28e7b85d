/// Who is calling, as far as rate limits and the audit log need to know.
struct ClientInfo: Hashable, Sendable {
    /// The client's IP address as text, nil if unknown (then AuthCore skips per-IP limits).
    let ip: String?
    /// The `User-Agent` header, at most `ClientInfoResolver.maxUserAgentLength` characters; nil if absent.
    let userAgent: String?
}
