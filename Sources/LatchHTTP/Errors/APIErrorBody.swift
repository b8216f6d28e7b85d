/// The error body `{"error":{"code":"…","message":"…"}}`, with `reason` for `weak_password`.
struct APIErrorBody: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
        /// Omitted from the JSON when nil (synthesised `encodeIfPresent`).
        let reason: String?
    }

    let error: Detail

    init(code: String, message: String, reason: String?) {
        error = Detail(code: code, message: message, reason: reason)
    }
}
