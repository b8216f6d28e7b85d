import AuthCore

/// `{"purpose": "confirm"|"reset"}` for `POST /admin/v1/users/{id}/links`.
struct AdminLinkBody: APIRequestBody {
    let purpose: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case purpose
    }

    /// Only the two links an operator issues (`latchctl link`).
    var tokenPurpose: TokenPurpose? {
        switch purpose {
        case "confirm": .confirm
        case "reset": .reset
        default: nil
        }
    }

    func validate() throws(APIError) {
        if tokenPurpose == nil { throw .invalidField("purpose") }
    }
}
