import CameraCore

/// Typed, strict access to the fields of one JSON object, with errors that
/// name the field by its full wire path (`camera.lat`, `points[2].x`).
struct FieldReader {
    let object: [String: JSONValue]
    /// Put before every key in error messages ("" at the top level, "camera." inside camera).
    let path: String
    /// The `ref` of every error raised while reading this message.
    let ref: String?

    init(_ object: [String: JSONValue], path: String = "", ref: String?) {
        self.object = object
        self.path = path
        self.ref = ref
    }

    func name(_ key: String) -> String { path + key }

    func fail(_ field: String, _ message: String) -> ProtocolError {
        ProtocolError(.badMessage, "\(field): \(message)", ref: ref)
    }

    func fail(_ error: CameraInputError, prefix: String = "") -> ProtocolError {
        ProtocolError(.badMessage, "\(prefix)\(error.field): \(error.message)", ref: ref)
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    /// Fails naming every key not in `known`.
    func rejectUnknownKeys(_ known: [String], of what: String) throws(ProtocolError) {
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let list = known.joined(separator: ", ")
        if unknown.count == 1 {
            throw fail(name(first), "unknown field in \(what) (known: \(list))")
        }
        throw ProtocolError(.badMessage, "\(what): unknown fields \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (known: \(list))", ref: ref)
    }

    // MARK: Numbers

    /// A finite number, or nil when absent. `null`, other types and ±inf fail.
    func number(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = object[key] else { return nil }
        return try Self.finite(value, field: name(key), reader: self)
    }

    static func finite(_ value: JSONValue, field: String, reader: FieldReader) throws(ProtocolError) -> Double {
        switch value {
        case .number(let v):
            guard v.isFinite else { throw reader.fail(field, "must be a finite number (got \(v))") }
            return v
        default:
            throw reader.fail(field, "must be a finite number (got \(value.typeName))")
        }
    }

    func requiredNumber(_ key: String) throws(ProtocolError) -> Double {
        guard let v = try number(key) else { throw fail(name(key), "missing") }
        return v
    }

    /// A finite number within `range`, or nil when absent.
    func number(_ key: String, in range: ClosedRange<Double>, unit: String = "") throws(ProtocolError) -> Double? {
        guard let v = try number(key) else { return nil }
        guard range.contains(v) else {
            throw fail(name(key), "must be within \(format(range.lowerBound))…\(format(range.upperBound))\(unit) (got \(v))")
        }
        return v
    }

    /// A finite number with 0 < value ≤ `upper`, or nil when absent.
    func positiveNumber(_ key: String, atMost upper: Double) throws(ProtocolError) -> Double? {
        guard let v = try number(key) else { return nil }
        guard v > 0 && v <= upper else {
            throw fail(name(key), "must be greater than 0 and at most \(format(upper)) (got \(v))")
        }
        return v
    }

    // MARK: Other types

    func string(_ key: String) throws(ProtocolError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let s) = value else { throw fail(name(key), "must be a string (got \(value.typeName))") }
        return s
    }

    func requiredString(_ key: String) throws(ProtocolError) -> String {
        guard let s = try string(key) else { throw fail(name(key), "missing") }
        return s
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let b) = value else { throw fail(name(key), "must be true or false (got \(value.typeName))") }
        return b
    }

    /// The nested object as a reader (errors named `key.field`), or nil when absent.
    func object(_ key: String) throws(ProtocolError) -> FieldReader? {
        guard let value = object[key] else { return nil }
        guard case .object(let o) = value else { throw fail(name(key), "must be an object (got \(value.typeName))") }
        return FieldReader(o, path: name(key) + ".", ref: ref)
    }

    func requiredObject(_ key: String) throws(ProtocolError) -> FieldReader {
        guard let o = try object(key) else { throw fail(name(key), "missing") }
        return o
    }

    func array(_ key: String) throws(ProtocolError) -> [JSONValue]? {
        guard let value = object[key] else { return nil }
        guard case .array(let a) = value else { throw fail(name(key), "must be an array (got \(value.typeName))") }
        return a
    }

    /// One of `Value`'s raw values, or nil when absent.
    func enumeration<Value: RawRepresentable & CaseIterable>(_ key: String, _ type: Value.Type, what: String) throws(ProtocolError) -> Value?
    where Value.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let v = Value(rawValue: s) else {
            throw fail(name(key), "unknown \(what) '\(s)' (known: \(Value.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return v
    }

    /// A user-supplied text (name, id): 1…`maxLength` Unicode scalars, no control characters.
    func text(_ key: String, maxLength: Int = HubProtocol.maxNameLength) throws(ProtocolError) -> String? {
        guard let s = try string(key) else { return nil }
        guard !s.isEmpty else { throw fail(name(key), "must not be empty") }
        var count = 0
        for scalar in s.unicodeScalars {
            count += 1
            guard count <= maxLength else { throw fail(name(key), "must be at most \(maxLength) characters") }
            let v = scalar.value
            guard v >= 0x20 && !(0x7F...0x9F).contains(v) else { throw fail(name(key), "must not contain control characters") }
        }
        return s
    }

    /// `{"x":…,"y":…}` (both required, no other keys), or nil when absent.
    func viewPoint(_ key: String) throws(ProtocolError) -> ViewPoint? {
        guard let o = try object(key) else { return nil }
        try o.rejectUnknownKeys(["x", "y"], of: name(key))
        return ViewPoint(x: try o.requiredNumber("x"), y: try o.requiredNumber("y"))
    }
}

/// `12.0` → `12`, `0.5` → `0.5` (for ranges in messages).
func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
}
