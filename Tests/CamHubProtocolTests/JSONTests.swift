import Foundation
import Testing

@testable import CamHubProtocol

@Suite("Strict JSON parser")
struct JSONParserTests {
    @Test("values")
    func values() throws {
        #expect(
            try JSONParser.parse(#" {"a":[1,-2.5e3,true,false,null,"x"],"b":{}} "#)
                == .object(["a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null, .string("x")]), "b": .object([:])]))
        #expect(try JSONParser.parse("0") == .number(0))
        #expect(try JSONParser.parse("-0.0") == .number(-0.0))
        #expect(try JSONParser.parse("[]") == .array([]))
    }

    @Test("string escapes, surrogate pairs and raw UTF-8")
    func strings() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        #expect(try JSONParser.parse(#""\u00e9\u20AC\ud83d\ude00""#) == .string("é€😀"))
        #expect(try JSONParser.parse("\"é€😀\"") == .string("é€😀"))
        #expect(try JSONParser.parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test(
        "rejects what RFC 8259 forbids",
        arguments: [
            "", " ", "{", "}", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "1e", "--1", "0x10", "NaN", "Infinity", "-Infinity",
            "tru", "nul", "'a'", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
            "\"a\u{1}b\"", "\"tab\there\"", "[1] [2]", "{\"a\" 1}", "{1:2}", "// c\n{}", "{\"a\":1,\"a\":2}",
        ])
    func rejects(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("numbers convert to the correctly rounded double; overflow is infinite")
    func numbers() throws {
        for text in ["0.1", "1e-7", "123456789012345678901234567890", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "1718000000123.456"] {
            #expect(try JSONParser.parse(text) == .number(Double(text)!))
        }
        #expect(try JSONParser.parse("1e999") == .number(.infinity))
        #expect(try JSONParser.parse("-1E+999") == .number(-.infinity))
        #expect(try JSONParser.parse("1e-999") == .number(0))
    }

    @Test("nesting deeper than 32 is rejected (no stack overflow on hostile input)")
    func depth() throws {
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let hostile = String(repeating: "[", count: 8000)
        #expect(decodeError(hostile)?.code == .badMessage)
    }

    @Test("duplicate keys name the key")
    func duplicates() {
        #expect(decodeError(#"{"type":"set","type":"ping"}"#)?.message.contains("duplicate key 'type'") == true)
    }

    @Test("UTF-8 validation")
    func utf8() {
        #expect(UTF8Validation.isValid(Array("aé€😀".utf8)))
        #expect(!UTF8Validation.isValid([0xC3]))  // truncated
        #expect(!UTF8Validation.isValid([0xC0, 0xAF]))  // overlong
        #expect(!UTF8Validation.isValid([0xE0, 0x80, 0xAF]))  // overlong
        #expect(!UTF8Validation.isValid([0xED, 0xA0, 0x80]))  // surrogate
        #expect(!UTF8Validation.isValid([0xF4, 0x90, 0x80, 0x80]))  // > U+10FFFF
        #expect(!UTF8Validation.isValid([0xFF]))
        #expect(!UTF8Validation.isValid([0x80]))
        #expect(UTF8Validation.isValid([0xF4, 0x8F, 0xBF, 0xBF]))
    }
}
