extension JSONValue {
    /// Compact JSON text of the value, object keys sorted except that `type`
    /// comes first (readable logs, stable output). Numbers as `JSONWriter.plainNumber`
    /// writes them; an infinity (which only parsing a literal such as `1e999` makes)
    /// is written back as `1e999`, so that the hub refuses it as it would the original.
    public var text: String {
        var w = JSONWriter(capacity: 64)
        w.value(self)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension JSONWriter {
    /// Writes a parsed value (see `JSONValue.text`).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let d) where d.isInfinite: d < 0 ? raw("-1e999") : raw("1e999")
        case .number(let d): plainNumber(d)
        case .string(let s): string(s)
        case .array(let items):
            raw("[")
            for (i, item) in items.enumerated() {
                if i > 0 { raw(",") }
                self.value(item)
            }
            raw("]")
        case .object(let object):
            raw("{")
            let members = object.sorted { a, b in a.key == "type" ? b.key != "type" : (b.key != "type" && a.key < b.key) }
            for (i, (key, item)) in members.enumerated() {
                if i > 0 { raw(",") }
                string(key)
                raw(":")
                self.value(item)
            }
            raw("}")
        }
    }

    /// A double as `plainNumber` writes it, as a string (for messages to people).
    public static func plain(_ value: Double) -> String {
        var w = JSONWriter(capacity: 24)
        w.plainNumber(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension JSONParseError {
    /// 1-based line and column of `offset` (a byte offset) in `text`.
    public static func lineAndColumn(of offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in text.utf8.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
