import LatchTestSupport

/// `{"error":{"code":…,"message":…,"reason":…}}`, the body of every API error.
struct ErrorJSON: Decodable, Sendable {
    struct Detail: Decodable, Sendable {
        let code: String
        let message: String
        let reason: String?
    }

    let error: Detail

    /// The error code of `response`, or nil when its body is not an API error.
    static func code(_ response: HTTPTestClient.Response) -> String? {
        (try? response.json(ErrorJSON.self))?.error.code
    }

    static func reason(_ response: HTTPTestClient.Response) -> String? {
        (try? response.json(ErrorJSON.self))?.error.reason
    }
}
