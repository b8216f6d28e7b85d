/// The project's error body: `{"error":{"code":"…","message":"…"}}`.
struct ErrorEnvelope: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
    }

    let error: Detail

    init(code: String, message: String) {
        error = Detail(code: code, message: message)
    }
}
