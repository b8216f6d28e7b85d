import Foundation
import HTTPServer

extension HTTPResponse {
    struct NotAnObject: Error {}

    var text: String { String(decoding: body, as: UTF8.self) }

    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw NotAnObject()
        }
        return object
    }

    /// `error.code` of an error body, nil otherwise.
    var errorCode: String? {
        ((try? jsonObject())?["error"] as? [String: Any])?["code"] as? String
    }

    var errorMessage: String? {
        ((try? jsonObject())?["error"] as? [String: Any])?["message"] as? String
    }
}
