import CamHubProtocol
import HubCore

/// Writing and reading `JSONValue`s (HubCore's strict parser produces them).
/// Numbers are written in Swift's shortest round-trip form, so a value
/// written here and parsed by the hub is the same double.
public enum JSONText {
    /// Compact JSON text of `value`; object keys in sorted order except
    /// that `type` comes first (readable logs, stable output).
    public static func encode(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += number(d)
        case .string(let s): out += JSONWriter.quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            let members = object.sorted { a, b in
                if a.key == "type" { return b.key != "type" }
                if b.key == "type" { return false }
                return a.key < b.key
            }
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                out += JSONWriter.quoted(key)
                out += ":"
                write(value, into: &out)
            }
            out += "}"
        }
    }

    /// `12` for integral values (as people write them), else the shortest round-trip form.
    public static func number(_ d: Double) -> String {
        // ±inf only comes from parsing a literal too large for a double (1e999);
        // written back that way so the hub's decoder reports it as it would.
        guard d.isFinite else { return d.isNaN ? "null" : (d < 0 ? "-1e999" : "1e999") }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return d.description
    }

    /// Parses one JSON text with HubCore's strict parser.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(text)
    }

    /// 1-based line and column of a byte offset in `text` (for script errors).
    public static func lineAndColumn(of offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for (i, byte) in text.utf8.enumerated() {
            if i >= offset { break }
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
