/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and repeated names are kept because some headers (e.g. `Set-Cookie`) are
/// meaningful only as a list. Lookup compares ASCII case-insensitively without allocating.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field] = []

    /// An empty header list.
    public init() {}

    /// Headers from literal pairs, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Number of fields, counting repeated names separately.
    public var count: Int { fields.count }

    /// The first value for `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`, then appends one with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
