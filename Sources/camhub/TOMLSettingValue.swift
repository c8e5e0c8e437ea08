import Logging
import TOMLKit

/// A type a `camhub serve` setting holds: read from a TOML value (`--config`)
/// and written back as TOML (`--print-config`, `--print-example-config`).
protocol TOMLSettingValue: Sendable {
    /// Reads `value`, or says what it must be when it is not one of these.
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> Self

    /// The value as TOML: `8080`, `"text"`, `["a", "b"]`.
    var toml: String { get }
}

/// What a TOML value must be to set a setting ("an integer", "text or json"),
/// for the error that names the key: "port must be an integer".
struct TOMLExpectation: Error {
    let expected: String

    init(_ expected: String) { self.expected = expected }
}

extension String: TOMLSettingValue {
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> String {
        guard let text = value.string else { throw TOMLExpectation("a string") }
        return text
    }

    /// A basic TOML string: quoted, with `\` and `"` escaped.
    var toml: String {
        "\"" + replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension Int: TOMLSettingValue {
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> Int {
        guard let number = value.int else { throw TOMLExpectation("an integer") }
        return number
    }

    var toml: String { "\(self)" }
}

/// A number: a TOML float, or an integer taken as one (`room_ttl = 5`).
extension Double: TOMLSettingValue {
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> Double {
        if let number = value.double { return number }
        if let number = value.int { return Double(number) }
        throw TOMLExpectation("a number")
    }

    var toml: String { "\(self)" }
}

extension Bool: TOMLSettingValue {
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> Bool {
        guard let flag = value.bool else { throw TOMLExpectation("true or false") }
        return flag
    }

    var toml: String { "\(self)" }
}

/// A repeatable option: an array of strings.
extension Array: TOMLSettingValue where Element == String {
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> [String] {
        guard let array = value.array else { throw TOMLExpectation("an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let text = element.string else { throw TOMLExpectation("an array of strings") }
            strings.append(text)
        }
        return strings
    }

    var toml: String { "[" + map(\.toml).joined(separator: ", ") + "]" }
}

/// One of a fixed set of names (a `RawRepresentable` string enumeration).
protocol TOMLNamedValue: TOMLSettingValue, RawRepresentable where RawValue == String {
    /// The names allowed, as the error lists them: "text or json".
    static var allowed: String { get }
}

extension TOMLNamedValue {
    static func read(_ value: any TOMLValueConvertible) throws(TOMLExpectation) -> Self {
        guard let named = Self(rawValue: try String.read(value)) else { throw TOMLExpectation(allowed) }
        return named
    }

    var toml: String { rawValue.toml }
}

extension Logger.Level: TOMLNamedValue {
    static var allowed: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
}

extension LogFormat: TOMLNamedValue {
    static var allowed: String { "text or json" }
}
