import AuthCore

/// `{"scope":"local"|"global"}` for sign-out; the field, and the whole body, are optional (default local).
struct SignOutBody: APIRequestBody {
    let scope: SignOutScope

    init(scope: SignOutScope = .local) {
        self.scope = scope
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // An unknown scope is a `dataCorrupted` error at `scope`, which names the field (422).
        scope = try container.decodeIfPresent(SignOutScope.self, forKey: .scope) ?? .local
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case scope
    }

    func validate() throws(APIError) {}
}
