import Foundation
import LatchClient

extension TransportRequest {
    /// The JSON object body as a dictionary (empty without one).
    var fields: [String: Any] {
        (body.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]) ?? [:]
    }
}
