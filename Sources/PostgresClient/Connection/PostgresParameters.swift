import CLibPQ

/// Statement parameters laid out as libpq wants them: a type OID array and a text value array.
struct PostgresParameters {
    private let types: [Oid]
    private let values: CStringArray

    init(_ parameters: [PostgresValue]) {
        self.types = parameters.map { Oid($0.type.rawValue) }
        self.values = CStringArray(parameters.map(\.text))
    }

    func withPointers<R>(_ body: (UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?) throws -> R) rethrows
        -> R
    {
        try types.withUnsafeBufferPointer { types in
            try values.withPointers { values in try body(types.baseAddress, values) }
        }
    }
}
