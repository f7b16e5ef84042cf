import Targets
import Testing

/// The ordered JSON value and its parser.
@Suite struct JSONValueTests {
    @Test func roundTripKeepsKeyOrderAndNumberLiterals() throws {
        let text = #"{"zeta":1.50,"alpha":[-0,1e3,2E-2,12345678901234567890123],"s":"é \"q\" \\ / 😀","t":true,"f":false,"n":null,"o":{}}"#
        let value = try JSONValue.parse(text)
        #expect(value.compactText == text)
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["zeta", "alpha", "s", "t", "f", "n", "o"])
        #expect(value["zeta"] == .number("1.50"))
        #expect(value["zeta"]?.double == 1.5)
        #expect(value["alpha"]?[3] == .number("12345678901234567890123"))
        #expect(value["alpha"]?[-1] == .number("12345678901234567890123"))
        #expect(value["alpha"]?[4] == nil)
    }

    @Test func whitespaceIsDroppedAndEscapesDecoded() throws {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = " {\n \"a\" : [ 1 , \"\\u00e9\\n\\ud83d\\ude00\\t\" ] }\r\n"
        let value = try JSONValue.parse(byteOrderMark + Array(text.utf8))
        #expect(value.compactText == "{\"a\":[1,\"é\\n😀\\t\"]}")
        #expect(value["a"]?[1]?.string == "é\n😀\t")
    }

    /// A repeated name is read once, the last value in the first one's place, as jq, Python and
    /// JavaScript read it, so that `.a`, `keys`, `length` and `==` see one object (they saw two
    /// readings: `.a` the last, `keys` both). Names repeat only with the same scalars.
    @Test func aRepeatedNameIsReadOnceTheLastValueInTheFirstPlace() throws {
        let value = try JSONValue.parse(#"{"a":1,"b":0,"a":2}"#)
        #expect(value.compactText == #"{"a":2,"b":0}"#)
        #expect(value["a"] == .number("2"))
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(try JSONValue.parse("{\(many),\"k3\":\"x\",\"k39\":\"y\"}").compactText
                == "{" + (0..<40).map { "\"k\($0)\":" + ($0 == 3 ? "\"x\"" : $0 == 39 ? "\"y\"" : "\($0)") }.joined(separator: ",") + "}")
        #expect(try JSONValue.parse(#"{"caf\u00e9":1,"cafe\u0301":2}"#).compactText == "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}")
        // Redaction reads every value sent under a credential's name.
        #expect(try JSONValue.parseKeepingDuplicates(Array(#"{"a":1,"a":2}"#.utf8)).compactText == #"{"a":1,"a":2}"#)
    }

    /// A member is found by its name's Unicode scalars, not by Swift's canonical equivalence.
    @Test func aMemberIsFoundByItsNamesScalars() throws {
        let value = try JSONValue.parse(#"{"cafe\u0301":1}"#)
        #expect(value["caf\u{E9}"] == nil)
        #expect(value["cafe\u{301}"] == .number("1"))
    }

    @Test func controlCharactersAreEscapedWhenWritten() {
        // DEL and C1 controls too, so no text written from JSON can drive a terminal.
        let value = JSONValue.object([JSONMember(key: "k\u{1}", value: .string("tab\there\u{7F}\u{9B}2J"))])
        #expect(value.compactText == "{\"k\\u0001\":\"tab\\there\\u007f\\u009b2J\"}")
    }

    @Test(arguments: [
        ("", 1, 1, "end of input"),
        ("{not json", 1, 2, "expected a string as object key"),
        ("{\"a\":}", 1, 6, "expected a value"),
        ("[1,]", 1, 4, "expected a value"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("01", 1, 2, "after the JSON value"),
        ("1.", 1, 3, "expected a digit after '.'"),
        ("-", 1, 2, "expected a digit"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\nb\"", 1, 3, "control character"),
        ("\"\\x\"", 1, 3, "invalid escape"),
        ("{}\n  x", 2, 3, "after the JSON value"),
        ("{\n  \"a\": tru\n}", 2, 8, "expected a value"),
    ])
    func badInputSaysWhere(input: String, line: Int, column: Int, message: String) {
        do {
            let value = try JSONValue.parse(input)
            Issue.record("parsed \(input.debugDescription) as \(value.compactText)")
        } catch {
            #expect(error.line == line, "\(input.debugDescription): \(error)")
            #expect(error.column == column, "\(input.debugDescription): \(error)")
            #expect(error.message.contains(message), "\(input.debugDescription): \(error)")
            #expect(error.description.hasPrefix("line \(line), column \(column): "))
        }
    }

    /// JSON is UTF-8: a Latin-1 `é` is an error, not U+FFFD a check could compare against.
    @Test func bytesThatAreNotUTF8AreRefused() throws {
        let latin1: [UInt8] = Array(#"{"a":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(latin1) }
        #expect(try JSONValue.parse(Array(#"{"a":"café","b":"\ud800"}"#.utf8))["a"] == .string("café"))
    }

    @Test func deepNestingIsRefusedNotCrashed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONValue.parse(fine)) != nil)
    }

    @Test func realForecastShapeParses() throws {
        // The start of shared/fixtures/real/open-meteo-forecast.json, closed early.
        let text = #"{"latitude":48.14,"longitude":11.58,"generationtime_ms":0.1,"utc_offset_seconds":0,"timezone":"GMT","timezone_abbreviation":"GMT","elevation":521.0,"current_weather":{"temperature":52.1,"windspeed":6.5,"winddirection":207.0,"weathercode":3,"is_day":0,"time":"2023-11-01T21:30"},"hourly_units":{"time":"iso8601","temperature_2m":"°F"},"hourly":{"time":["2023-11-01T00:00","2023-11-01T01:00"],"temperature_2m":[51.0,50.3]}}"#
        let value = try JSONValue.parse(text)
        #expect(value.compactText == text)
        #expect(value["current_weather"]?["temperature"]?.double == 52.1)
        #expect(value["elevation"] == .number("521.0"))
        #expect(value["hourly"]?["temperature_2m"]?[-1]?.double == 50.3)
    }
}
