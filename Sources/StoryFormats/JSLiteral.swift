import CamHubProtocol

/// The object literal of a JavaScript file such as a Mapbox storytelling
/// `config.js` (`var config = {…};`), read as JSON is read but with what such
/// files use besides: comments, unquoted keys, single-quoted and backtick
/// strings (without `${}`), trailing commas. Anything else (a function, a
/// variable) is an error naming the line.
struct JSLiteral {
    private let bytes: [UInt8]
    private var at = 0

    /// The first `{…}` literal of `source` (after `var config =` or the like; plain JSON too).
    static func parse(_ source: [UInt8]) throws(StoryFormatError) -> JSONValue {
        var reader = JSLiteral(bytes: source)
        reader.skipToObject()
        guard reader.at < source.count else { throw StoryFormatError("no object literal ({…}) in the file") }
        return try reader.value(depth: 0)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var line: Int { bytes[..<min(at, bytes.count)].reduce(1) { $1 == 10 ? $0 + 1 : $0 } }

    private func fail(_ message: String) -> StoryFormatError { StoryFormatError("line \(line): \(message)") }

    private mutating func skipToObject() {
        while at < bytes.count {
            skipSpace()
            guard at < bytes.count else { return }
            if bytes[at] == UInt8(ascii: "{") { return }
            at += 1
        }
    }

    private mutating func skipSpace() {
        while at < bytes.count {
            let c = bytes[at]
            if c == 32 || c == 9 || c == 10 || c == 13 {
                at += 1
            } else if c == UInt8(ascii: "/"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "/") {
                while at < bytes.count && bytes[at] != 10 { at += 1 }
            } else if c == UInt8(ascii: "/"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "*") {
                at += 2
                while at + 1 < bytes.count && !(bytes[at] == UInt8(ascii: "*") && bytes[at + 1] == UInt8(ascii: "/")) { at += 1 }
                at += 2
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(StoryFormatError) -> JSONValue {
        guard depth < 32 else { throw fail("nested more than 32 levels deep") }
        skipSpace()
        guard at < bytes.count else { throw fail("the file ends inside the literal") }
        let c = bytes[at]
        switch c {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"): return .string(try string())
        default:
            let word = identifier()
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null", "undefined": return .null
            case "": break
            default:
                if let v = Double(word) { return .number(v) }
                throw fail("'\(word)' is not a value this reader takes (numbers, strings, true, false, null, objects, arrays)")
            }
            throw fail("unexpected '\(String(UnicodeScalar(c)))'")
        }
    }

    private mutating func identifier() -> String {
        let start = at
        while at < bytes.count {
            let c = bytes[at]
            let word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c == 36
            guard word || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c >= 0x80 else { break }
            at += 1
        }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    private mutating func object(depth: Int) throws(StoryFormatError) -> JSONValue {
        at += 1
        var out: [String: JSONValue] = [:]
        while true {
            skipSpace()
            guard at < bytes.count else { throw fail("the file ends inside an object") }
            if bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(out)
            }
            let c = bytes[at]
            let key = c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") ? try string() : identifier()
            guard !key.isEmpty else { throw fail("expected a key or }") }
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected : after '\(key)'") }
            at += 1
            out[key] = try value(depth: depth + 1)
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: ",") {
                at += 1
            } else if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                continue
            } else {
                throw fail("expected , or } after the value of '\(key)'")
            }
        }
    }

    private mutating func array(depth: Int) throws(StoryFormatError) -> JSONValue {
        at += 1
        var out: [JSONValue] = []
        while true {
            skipSpace()
            guard at < bytes.count else { throw fail("the file ends inside an array") }
            if bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(out)
            }
            out.append(try value(depth: depth + 1))
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: ",") {
                at += 1
            } else if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                continue
            } else {
                throw fail("expected , or ] in an array")
            }
        }
    }

    private mutating func string() throws(StoryFormatError) -> String {
        let quote = bytes[at]
        at += 1
        var out: [UInt8] = []
        while at < bytes.count {
            let c = bytes[at]
            if c == quote {
                at += 1
                return String(decoding: out, as: UTF8.self)
            }
            if quote == UInt8(ascii: "`"), c == UInt8(ascii: "$"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "{") {
                throw fail("a template string with ${…} (this reader takes plain strings only)")
            }
            if c == UInt8(ascii: "\\"), at + 1 < bytes.count {
                at += 1
                switch bytes[at] {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): break
                case 10: break  // a line continuation
                case UInt8(ascii: "u"):
                    guard at + 4 < bytes.count, let code = UInt32(String(decoding: bytes[(at + 1)...(at + 4)], as: UTF8.self), radix: 16),
                        let scalar = UnicodeScalar(code)
                    else { throw fail("a bad \\u escape") }
                    out += Array(String(Character(scalar)).utf8)
                    at += 4
                default: out.append(bytes[at])
                }
                at += 1
                continue
            }
            if c == 10 && quote != UInt8(ascii: "`") { throw fail("a string runs past the end of its line") }
            out.append(c)
            at += 1
        }
        throw fail("the file ends inside a string")
    }
}
