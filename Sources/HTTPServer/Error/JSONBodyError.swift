/// Why a request body could not be decoded as JSON. Messages name at most a field path,
/// never a value from the body (which may hold a password).
public enum JSONBodyError: Error, Equatable, HTTPResponseError {
    /// `Content-Type` is not `application/json` (415 `unsupported_media_type`).
    case unsupportedMediaType
    /// No body at all (400 `invalid_json`).
    case emptyBody
    /// Not syntactically valid JSON (400 `invalid_json`).
    case malformed
    /// Valid JSON, but a field is missing or of the wrong type (422 `invalid_request`).
    case invalidField(String)

    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self = .invalidField(Self.fieldPath(context.codingPath + [key]))
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self = .invalidField(Self.fieldPath(context.codingPath))
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            self = .invalidField(Self.fieldPath(context.codingPath))
        default:
            self = .malformed
        }
    }

    public var status: HTTPStatus {
        switch self {
        case .unsupportedMediaType: .unsupportedMediaType
        case .emptyBody, .malformed: .badRequest
        case .invalidField: .unprocessableContent
        }
    }

    public var code: String {
        switch self {
        case .unsupportedMediaType: "unsupported_media_type"
        case .emptyBody, .malformed: "invalid_json"
        case .invalidField: "invalid_request"
        }
    }

    public var message: String {
        switch self {
        case .unsupportedMediaType: "Content-Type must be application/json"
        case .emptyBody: "request body is empty"
        case .malformed: "request body is not valid JSON"
        case .invalidField(let path): "missing or invalid field: \(path)"
        }
    }

    private static func fieldPath(_ keys: [any CodingKey]) -> String {
        let path = keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? "(root)" : path
    }
}
