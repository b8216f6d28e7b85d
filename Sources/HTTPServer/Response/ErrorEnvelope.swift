/// The project's error body: `{"error":{"code":"…","message":"…"}}`, with `reason` when there is one.
struct ErrorEnvelope: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
        /// Omitted from the JSON when nil (synthesised `encodeIfPresent`).
        let reason: String?
    }

    let error: Detail

    init(code: String, message: String, reason: String? = nil) {
        error = Detail(code: code, message: message, reason: reason)
    }
}
