import CCBOR
import Foundation

/// A libcbor item tree copied into `CBORValue`s, refusing on the way what `CBORHeadScanner` should already have
/// refused (so that a disagreement between the two fails closed) and what only a built tree shows: text that is not
/// UTF-8 and duplicate map keys.
enum CBORItemConversion {
    static func value(of item: UnsafePointer<cbor_item_t>) throws(CBORError) -> CBORValue {
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT:
            return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            return .bytes(Data(try definiteBytes(of: item)))
        case CBOR_TYPE_STRING:
            guard cbor_string_is_definite(item) else { throw .indefiniteLength }
            let bytes = UnsafeBufferPointer(start: cbor_string_handle(item), count: cbor_string_length(item))
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed }
            return .text(text)
        case CBOR_TYPE_ARRAY:
            return .array(try arrayMembers(of: item))
        case CBOR_TYPE_MAP:
            return .map(try mapEntries(of: item))
        case CBOR_TYPE_TAG:
            throw .tag
        default:
            return try simpleValue(of: item)
        }
    }

    private static func definiteBytes(of item: UnsafePointer<cbor_item_t>) throws(CBORError)
        -> UnsafeBufferPointer<UInt8>
    {
        guard cbor_bytestring_is_definite(item) else { throw .indefiniteLength }
        return UnsafeBufferPointer(start: cbor_bytestring_handle(item), count: cbor_bytestring_length(item))
    }

    private static func arrayMembers(of item: UnsafePointer<cbor_item_t>) throws(CBORError) -> [CBORValue] {
        guard cbor_array_is_definite(item) else { throw .indefiniteLength }
        let members = UnsafeBufferPointer(start: cbor_array_handle(item), count: cbor_array_size(item))
        var values: [CBORValue] = []
        values.reserveCapacity(members.count)
        for member in members {
            guard let member else { throw .malformed }
            values.append(try value(of: member))
        }
        return values
    }

    private static func mapEntries(of item: UnsafePointer<cbor_item_t>) throws(CBORError) -> [CBORMapEntry] {
        guard cbor_map_is_definite(item) else { throw .indefiniteLength }
        let pairs = UnsafeBufferPointer(start: cbor_map_handle(item), count: cbor_map_size(item))
        var entries: [CBORMapEntry] = []
        var keys: Set<CBORValue> = []
        for pair in pairs {
            guard let key = pair.key, let value = pair.value else { throw .malformed }
            let entry = CBORMapEntry(key: try self.value(of: key), value: try self.value(of: value))
            guard keys.insert(entry.key).inserted else { throw .duplicateKey }
            entries.append(entry)
        }
        return entries
    }

    private static func simpleValue(of item: UnsafePointer<cbor_item_t>) throws(CBORError) -> CBORValue {
        guard cbor_isa_float_ctrl(item), cbor_float_ctrl_is_ctrl(item) else { throw .unsupportedSimpleValue }
        if cbor_is_null(item) { return .null }
        if cbor_is_bool(item) { return .bool(cbor_get_bool(item)) }
        throw .unsupportedSimpleValue
    }
}
