/// A parsed JSON value. The hub parses client messages with its own strict
/// parser (not JSONSerialization) so that types are exact on every platform:
/// `true` is never a number, `"3"` is never a number, and a number too large
/// for a Double (`1e999`) arrives as an infinite `number` that the typed
/// readers reject as not finite.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A short name of the value's type for error messages ("a string", "null", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Why a text is not acceptable JSON (with the byte offset where parsing stopped).
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// Strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas,
/// no duplicate object keys, no raw control characters in strings, no lone
/// surrogates in `\u` escapes, nesting at most `maxDepth` deep.
public struct JSONParser {
    /// Arrays and objects nested deeper than this are rejected (stack safety).
    public static let maxDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON text. The bytes must be valid UTF-8 (see `UTF8Validation`).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw parser.error("unexpected data after the value") }
        return value
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func error(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    private var atEnd: Bool { i >= bytes.count }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - i >= count else { throw error("unexpected end of input") }
        let p = literal.utf8Start
        for k in 0..<count where bytes[i + k] != p[k] { throw error("invalid literal") }
        i += count
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard !atEnd else { throw error("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
        i += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if !atEnd && bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard !atEnd, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyOffset = i
            let key = try parseString()
            skipWhitespace()
            guard !atEnd, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            guard object.updateValue(value, forKey: key) == nil else {
                throw JSONParseError(offset: keyOffset, reason: "duplicate key '\(key)'")
            }
            skipWhitespace()
            guard !atEnd else { throw error("unexpected end of input") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(object)
            }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
        i += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if !atEnd && bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard !atEnd else { throw error("unexpected end of input") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(array)
            }
            throw error("expected ',' or ']'")
        }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Strict JSON number grammar; the value is converted with `Double(_:)`,
    /// which gives the correctly rounded double (±inf when out of range).
    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard !atEnd, Self.isDigit(bytes[i]) else { throw error("invalid number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while !atEnd && Self.isDigit(bytes[i]) { i += 1 }
        }
        if !atEnd && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard !atEnd, Self.isDigit(bytes[i]) else { throw error("invalid number") }
            while !atEnd && Self.isDigit(bytes[i]) { i += 1 }
        }
        if !atEnd && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if !atEnd && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard !atEnd, Self.isDigit(bytes[i]) else { throw error("invalid number") }
            while !atEnd && Self.isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONParseError(offset: start, reason: "invalid number") }
        return value
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw error("unexpected end of input in \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[i]) else { throw error("invalid \\u escape") }
            value = value << 4 | digit
            i += 1
        }
        return value
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        i += 1  // opening quote
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            guard b >= 0x20 else { throw error("control character in string") }
            i += 1
        }
        var out = Array(bytes[start..<i])
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard b >= 0x20 else { throw error("control character in string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw error("unterminated string") }
            let escape = bytes[i]
            i += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes.count - i >= 2, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw error("invalid escape")
            }
        }
    }
}

/// UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
public enum UTF8Validation {
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            func cont(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
            switch b0 {
            case 0xC2...0xDF:
                guard cont(1) else { return false }
                i += 2
            case 0xE0...0xEF:
                guard cont(1), cont(2) else { return false }
                let b1 = bytes[i + 1]
                if b0 == 0xE0 && b1 < 0xA0 { return false }  // overlong
                if b0 == 0xED && b1 >= 0xA0 { return false }  // surrogate
                i += 3
            case 0xF0...0xF4:
                guard cont(1), cont(2), cont(3) else { return false }
                let b1 = bytes[i + 1]
                if b0 == 0xF0 && b1 < 0x90 { return false }  // overlong
                if b0 == 0xF4 && b1 >= 0x90 { return false }  // > U+10FFFF
                i += 4
            default:
                return false
            }
        }
        return true
    }

    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }
}
