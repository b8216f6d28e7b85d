import HTTPServer

/// A JSON request body: an object of the body's own fields (its `CodingKeys`) and no others, none of them null,
/// decoded by `Decodable` (missing or wrong-typed fields refused), then checked against `FieldLimits`.
///
/// As strict as openapi.yaml, whose request schemas say `additionalProperties: false` and allow no null: a field
/// the endpoint does not read is refused rather than ignored, so a misspelt optional field (`devicetoken`) is an
/// error instead of a silent default, and `{"scope": null}` is not taken for an absent scope.
protocol APIRequestBody: Decodable {
    /// Every field the body reads; the document's `properties` name the same.
    associatedtype CodingKeys: CodingKey, CaseIterable
    /// Throws `APIError` for a field over its limit.
    func validate() throws(APIError)
}

extension APIRequestBody {
    /// Decodes and validates the body of `request`.
    /// - Throws: `JSONBodyError` (415, 400, 422) or `APIError` (422); both say their own answer.
    static func decode(from request: HTTPRequest) throws -> Self {
        let received = try request.decodeJSON(ReceivedBody<Self>.self)
        let known = CodingKeys.allCases.map(\.stringValue)
        for field in received.fields {
            guard known.contains(field.name) else { throw APIError.unknownField(expected: known) }
            if field.isNull { throw APIError.invalidField(field.name) }
        }
        try received.body.validate()
        return received.body
    }
}

/// A body as it came: the decoded value, and the names of the object's fields with whether each was null
/// (`Decodable` alone drops unknown fields and reads null as absent).
private struct ReceivedBody<Body: Decodable>: Decodable {
    let body: Body
    let fields: [(name: String, isNull: Bool)]

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: FieldName.self)
        fields = try object.allKeys.map { ($0.stringValue, try object.decodeNil(forKey: $0)) }
        body = try Body(from: decoder)
    }

    private struct FieldName: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
