/// The rule for how a request's body is delimited, checked when its headers are in and before any of its body is
/// read: a request that two HTTP parsers (a proxy in front, libmicrohttpd here) could delimit differently is
/// refused, since what one takes for the end of a body the other may take for the start of the next request
/// ("request smuggling"; RFC 9112 §6.1, §6.3).
///
/// What libmicrohttpd 0.9.75 does by itself, which the rule is fitted to: it reads only the *first*
/// `Transfer-Encoding` field and decodes chunked only when that field's value is exactly `chunked` (any case; its
/// leading whitespace skipped, trailing whitespace kept); with any `Transfer-Encoding` it ignores `Content-Length`;
/// otherwise it reads the first `Content-Length` field and refuses a malformed one with its own 400 page; and a field
/// name with whitespace before the colon is kept as a different name.
enum MessageFraming {
    /// Why `headers` leave the body's length open to more than one reading, as the 400 to answer with; nil when
    /// they do not. `version` is the request line's, e.g. `HTTP/1.1`.
    static func refusal(headers: HTTPHeaders, version: String) -> HTTPError? {
        // RFC 9112 §5.1 requires the refusal. libmicrohttpd would not see `Transfer-Encoding : chunked` as a
        // Transfer-Encoding at all, while a lenient proxy may.
        if headers.contains(where: { $0.name.utf8.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") } }) {
            return .badRequest("whitespace in a header field name")
        }
        let codings = headers.values(for: "Transfer-Encoding")
        let lengths = headers.values(for: "Content-Length")
        if !codings.isEmpty {
            if !lengths.isEmpty {
                // RFC 9112 §6.1 allows processing by Transfer-Encoding alone (what libmicrohttpd does), but a proxy
                // that went by Content-Length would disagree about where the body ends.
                return .badRequest("both Content-Length and Transfer-Encoding")
            }
            if version == "HTTP/1.0" {
                // RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing.
                return .badRequest("Transfer-Encoding in an HTTP/1.0 request")
            }
            // Exactly what libmicrohttpd decodes as chunked and nothing else: a list (`gzip, chunked`), a repeated
            // field or `chunked ` would be framed as chunked by one parser and read to the connection's end by
            // another (libmicrohttpd treats every other value as a body of unknown length). No other coding is
            // understood here, so a list ending in chunked could not be decoded anyway.
            guard codings.count == 1, let coding = codings.first, HTTPHeaders.namesMatch(coding, "chunked") else {
                return .badRequest("Transfer-Encoding must be exactly chunked")
            }
            return nil
        }
        if lengths.count > 1 {
            // Refused even when the values agree: two fields are the list `17, 17` (RFC 9110 §5.3), which
            // libmicrohttpd refuses when it is sent as one field; no client sends either, and one rule for both
            // leaves nothing for a proxy to resolve differently.
            return .badRequest("more than one Content-Length")
        }
        return nil
    }
}
