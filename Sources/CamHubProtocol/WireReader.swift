import CameraCore

/// Typed access to the fields of one JSON object of a hub message, with
/// errors that name the field by its wire path (`camera.lat`, `roster[1].role`).
///
/// Each reader comes in two forms: `number("t")` gives nil for a field that
/// is absent or null, `requiredNumber("time")` fails on both (`missing`, or
/// `must be a finite number (got null)`). Either fails on a value of another type.
struct WireReader {
    typealias DecodingError = HubToClient.DecodingError

    let object: [String: JSONValue]
    /// Put before every key in error messages ("" at the top level, "camera." inside camera).
    let path: String

    init(_ object: [String: JSONValue], path: String = "") {
        self.object = object
        self.path = path
    }

    func name(_ key: String) -> String { path + key }

    func fail(_ key: String, _ message: String) -> DecodingError { DecodingError(field: name(key), message: message) }

    /// The value of `key`, nil when absent or null.
    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    /// The value of `key`; fails when absent (a null is returned, for the caller to refuse).
    func required(_ key: String) throws(DecodingError) -> JSONValue {
        guard let value = object[key] else { throw fail(key, "missing") }
        return value
    }

    // MARK: Scalars

    static func number(_ value: JSONValue, field: String) throws(DecodingError) -> Double {
        guard case .number(let v) = value else { throw DecodingError(field: field, message: "must be a finite number (got \(value.typeName))") }
        guard v.isFinite else { throw DecodingError(field: field, message: "must be a finite number (got \(v))") }
        return v
    }

    func number(_ key: String) throws(DecodingError) -> Double? {
        guard let value = value(key) else { return nil }
        return try Self.number(value, field: name(key))
    }

    func requiredNumber(_ key: String) throws(DecodingError) -> Double {
        try Self.number(try required(key), field: name(key))
    }

    /// A whole number within 0…2^64 - 1. (JSON numbers are parsed as doubles:
    /// integers above 2^53 arrive rounded to a double's precision.)
    func integer(_ key: String) throws(DecodingError) -> UInt64? {
        guard let v = try number(key) else { return nil }
        guard let n = UInt64(exactly: v) else { throw fail(key, "must be a whole number of at least 0 (got \(v))") }
        return n
    }

    func requiredInteger(_ key: String) throws(DecodingError) -> UInt64 {
        guard let n = try integer(key) else { throw fail(key, object[key] == nil ? "missing" : "must be a finite number (got null)") }
        return n
    }

    /// A whole number of at least 0 that fits an `Int`.
    func requiredInt(_ key: String) throws(DecodingError) -> Int {
        let n = try requiredInteger(key)
        guard let i = Int(exactly: n) else { throw fail(key, "must be at most \(Int.max) (got \(n))") }
        return i
    }

    func string(_ key: String) throws(DecodingError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let s) = value else { throw fail(key, "must be a string (got \(value.typeName))") }
        return s
    }

    func requiredString(_ key: String) throws(DecodingError) -> String {
        let value = try required(key)
        guard case .string(let s) = value else { throw fail(key, "must be a string (got \(value.typeName))") }
        return s
    }

    func bool(_ key: String) throws(DecodingError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let b) = value else { throw fail(key, "must be true or false (got \(value.typeName))") }
        return b
    }

    func requiredBool(_ key: String) throws(DecodingError) -> Bool {
        let value = try required(key)
        guard case .bool(let b) = value else { throw fail(key, "must be true or false (got \(value.typeName))") }
        return b
    }

    /// One of `Value`'s raw values (`what` names the kind in the error), or nil when absent or null.
    func enumeration<Value: RawRepresentable>(_ key: String, _ type: Value.Type, what: String) throws(DecodingError) -> Value?
    where Value.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let v = Value(rawValue: s) else { throw fail(key, "unknown \(what) '\(s)'") }
        return v
    }

    func requiredEnumeration<Value: RawRepresentable>(_ key: String, _ type: Value.Type, what: String) throws(DecodingError) -> Value
    where Value.RawValue == String {
        let s = try requiredString(key)
        guard let v = Value(rawValue: s) else { throw fail(key, "unknown \(what) '\(s)'") }
        return v
    }

    // MARK: Objects and arrays

    /// The nested object as a reader (errors named `key.field`), or nil when absent or null.
    func object(_ key: String) throws(DecodingError) -> WireReader? {
        guard let value = value(key) else { return nil }
        return try Self.object(value, field: name(key))
    }

    func requiredObject(_ key: String) throws(DecodingError) -> WireReader {
        try Self.object(try required(key), field: name(key))
    }

    static func object(_ value: JSONValue, field: String) throws(DecodingError) -> WireReader {
        guard case .object(let o) = value else { throw DecodingError(field: field, message: "must be an object (got \(value.typeName))") }
        return WireReader(o, path: field + ".")
    }

    /// The items of the array `key`, each with its wire path (`key[i]`).
    func requiredArray(_ key: String) throws(DecodingError) -> [(value: JSONValue, field: String)] {
        let value = try required(key)
        guard case .array(let items) = value else { throw fail(key, "must be an array (got \(value.typeName))") }
        return items.enumerated().map { (value: $0.element, field: name(key) + "[\($0.offset)]") }
    }

    /// The array `key` of objects, each as a reader (errors named `key[i].field`).
    func requiredObjects(_ key: String) throws(DecodingError) -> [WireReader] {
        var out: [WireReader] = []
        for item in try requiredArray(key) { out.append(try Self.object(item.value, field: item.field)) }
        return out
    }

    /// The array `key` of strings.
    func requiredStrings(_ key: String) throws(DecodingError) -> [String] {
        var out: [String] = []
        for item in try requiredArray(key) {
            guard case .string(let s) = item.value else {
                throw DecodingError(field: item.field, message: "must be a string (got \(item.value.typeName))")
            }
            out.append(s)
        }
        return out
    }
}
