import Testing
@testable import Layout
import StackDocTestSupport

@Suite("JSON reader", .offThePool)
struct JSONParserTests {
    func parseError(_ text: String) -> String? { errorMessage { _ = try JSONParser.parse(text) } }
    func parseError(_ bytes: [UInt8]) -> String? { errorMessage { _ = try JSONParser.parse(bytes) } }

    @Test func readsEveryKindOfValue() throws {
        let v = try JSONParser.parse(#" {"a": [1, -2.5, 1e3, 0, -0, true, false, null], "b": {"c": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}, "d": ""} "#)
        #expect(v == .object([
            JSONMember("a", .array([.number(1), .number(-2.5), .number(1000), .number(0), .number(-0.0), .bool(true), .bool(false), .null])),
            JSONMember("b", .object([JSONMember("c", .string("x\"\\/\u{8}\u{c}\n\r\té😀"))])),
            JSONMember("d", .string("")),
        ]))
        #expect(try JSONParser.parse("[]") == .array([]))
        #expect(try JSONParser.parse("{}") == .object([]))
        #expect(try JSONParser.parse("\"ünï\"") == .string("ünï"))
        #expect(try JSONParser.parse("123456789012345678901234") == .number(1.2345678901234568e23))
        #expect(try JSONParser.parse("0.1") == .number(0.1))
        #expect(try JSONParser.parse("1E-300") == .number(1e-300))
        #expect(try JSONParser.parse("\u{FEFF}[1]") == .array([.number(1)]))  // BOM skipped
    }

    @Test func errorsHaveExactPositions() {
        #expect(parseError("") == "line 1, column 1: empty input: expected a JSON value")
        #expect(parseError("{\"a\" 1}") == "line 1, column 6: expected ':' after an object key, found character '1'")
        #expect(parseError("[1,\n 2,\n  x]") == "line 3, column 3: expected a value, found character 'x'")
        #expect(parseError("[1 2]") == "line 1, column 4: expected ',' or ']', found character '2'")
        #expect(parseError("{\"a\":1,}") == "line 1, column 8: expected a string key, found character '}'")
        #expect(parseError("[1,]") == "line 1, column 4: expected a value, found character ']'")
        #expect(parseError("{\"é\":1 \"b\"}") == "line 1, column 8: expected ',' or '}', found character '\"'")
        #expect(parseError("[1] x") == "line 1, column 5: unexpected character 'x' after the JSON value")
        #expect(parseError("[1") == "line 1, column 3: expected ',' or ']', found end of input")
        #expect(parseError("\"abc") == "line 1, column 5: unexpected end of input in a string")
        #expect(parseError("{\"a\":1,\"a\":2}") == "line 1, column 8: duplicate key 'a'")
        #expect(parseError("01") == "line 1, column 2: leading zeros are not allowed in numbers")
        #expect(parseError("-") == "line 1, column 2: expected a digit, found end of input")
        #expect(parseError("1.") == "line 1, column 3: expected a digit after '.', found end of input")
        #expect(parseError("1e") == "line 1, column 3: expected a digit in the exponent, found end of input")
        #expect(parseError("1e400") == "line 1, column 1: number 1e400 is out of range")
        #expect(parseError("-1e400") == "line 1, column 1: number -1e400 is out of range")
        #expect(parseError("NaN") == "line 1, column 1: expected a value, found character 'N'")
        #expect(parseError("[Infinity]") == "line 1, column 2: expected a value, found character 'I'")
        #expect(parseError("tru") == "line 1, column 1: expected a value, found character 't'")
        #expect(parseError("\"a\nb\"") == "line 1, column 3: control character U+000A in a string must be escaped")
        #expect(parseError("\"\\x\"") == "line 1, column 2: invalid escape in a string")
        #expect(parseError("\"\\u12\"") == "line 1, column 2: \\u needs four hex digits")
        #expect(parseError("\"ab\\ud800\"") == "line 1, column 4: lone surrogate \\uD800 in a string")
        #expect(parseError("\"\\udc00\"") == "line 1, column 2: lone surrogate \\uDC00 in a string")
        #expect(parseError([0x22, 0x61, 0xFF, 0x22]) == "line 1, column 3: invalid UTF-8 byte 0xFF")
        #expect(parseError([0x22, 0xC3, 0x28, 0x22]) == "line 1, column 3: invalid UTF-8 sequence")
        #expect(parseError([0x22, 0xED, 0xA0, 0x80, 0x22]) == "line 1, column 3: invalid UTF-8 sequence")  // encoded surrogate
        #expect(parseError([0x5B, 0xC3, 0xA9]) == "line 1, column 2: expected a value, found byte 0xC3")
        #expect(parseError("// c\n1") == "line 1, column 1: expected a value, found character '/'")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(parseError(deep) == "line 1, column 513: JSON nested deeper than 512 levels")
        let deepObjects = String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(parseError(deepObjects)?.hasSuffix("JSON nested deeper than 512 levels") == true)
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(parseError(ok) == nil)
    }

    @Test func manyKeysUseASetForDuplicates() throws {
        let keys = (0..<2000).map { "\"k\($0)\":\($0)" }
        let v = try JSONParser.parse("{" + keys.joined(separator: ",") + "}")
        #expect(v["k1999"] == .number(1999))
        #expect(parseError("{" + keys.joined(separator: ",") + ",\"k7\":0}")?.hasSuffix("duplicate key 'k7'") == true)
    }
}

@Suite("JSON writer and numbers", .offThePool)
struct JSONWriterTests {
    @Test func numbers() {
        #expect(JSONNumber.format(0) == "0")
        #expect(JSONNumber.format(-0.0) == "0")
        #expect(JSONNumber.format(390) == "390")
        #expect(JSONNumber.format(-12) == "-12")
        #expect(JSONNumber.format(0.5) == "0.5")
        #expect(JSONNumber.format(0.1 + 0.2) == "0.30000000000000004")
        #expect(JSONNumber.format(1e-7) == "1e-7")
        #expect(JSONNumber.format(1e-300) == "1e-300")
        #expect(JSONNumber.format(1e300) == "1e+300")
        #expect(JSONNumber.format(9_007_199_254_740_991) == "9007199254740991")
        #expect(JSONNumber.format(1e16) == "1e+16")
        #expect(JSONNumber.format(123.25) == "123.25")
        #expect(JSONNumber.format(.nan) == "null")
        #expect(JSONNumber.format(.infinity) == "null")
        #expect(JSONNumber.describe(-.infinity) == "-inf")
        for v in [0.1, 1.0 / 3, 2.5e-8, 123456.789, Double.leastNonzeroMagnitude, 1.7976931348623157e308, -4.2e17] {
            #expect(Double(JSONNumber.format(v)) == v, "\(v) does not round-trip")
            if case let .number(n)? = try? JSONParser.parse(JSONNumber.format(v)) { #expect(n == v) } else { Issue.record("unreadable \(v)") }
        }
    }

    @Test func compactAndPretty() throws {
        let v = JSONValue.object([
            JSONMember("a", .number(1)),
            JSONMember("s", .string("q\"\\\n\u{1}é")),
            JSONMember("o", .object([JSONMember("x", .number(-0.0)), JSONMember("y", .null)])),
            JSONMember("l", .array([.object([JSONMember("k", .array([]))]), .bool(true)])),
            JSONMember("e", .object([])),
        ])
        #expect(JSONWriter.compact(v) == #"{"a":1,"s":"q\"\\\n\u0001é","o":{"x":0,"y":null},"l":[{"k":[]},true],"e":{}}"#)
        #expect(JSONWriter.pretty(v) == """
        {
          "a": 1,
          "s": "q\\"\\\\\\n\\u0001é",
          "o": {"x": 0, "y": null},
          "l": [
            {"k": []},
            true
          ],
          "e": {}
        }
        """)
        #expect(try JSONParser.parse(JSONWriter.pretty(v)) == JSONParser.parse(JSONWriter.compact(v)))
    }
}
