import Foundation
import Targets
import Testing

/// A secret that JSON escapes hide in text a user reads (a check's note, a report's body) is masked
/// where its string literal stands, and nothing else of the text changes.
@Suite struct RedactionJSONTextTests {
    /// ASP.NET Core's System.Text.Json writes `+` as `\u002B`; the literal is replaced in place,
    /// the indentation, key order and numbers around it stay as sent.
    @Test func aSecretEscapedInALiteralIsMaskedInPlace() {
        let redaction = Redaction(secrets: ["AbC+dEf/GhI="])
        let body = "{\n  \"echo\": \"AbC\\u002BdEf/GhI=\",\n  \"n\": 1.50,\n  \"z\": \"tail\\u002B\"\n}"
        #expect(redaction.maskedDecodingJSON(body) == "{\n  \"echo\": \"***\",\n  \"n\": 1.50,\n  \"z\": \"tail\\u002B\"\n}")
    }

    /// httpbin echoes the body it was sent as a string (`data`), so a `"` in a secret is escaped
    /// twice; the string is JSON text, read in turn, and written again as a literal.
    @Test func aSecretInAStringHoldingJSONIsMaskedAsItDecodes() {
        let redaction = Redaction(secrets: [#"pa"ss12345"#])
        let body = #"{"args": {}, "data": "{\"name\":\"pa\\\"ss12345\",\"n\":15}", "json": {"name": "pa\"ss12345"}}"#
        let masked = redaction.maskedDecodingJSON(body)
        #expect(masked == #"{"args": {}, "data": "{\"name\":\"***\",\"n\":15}", "json": {"name": "***"}}"#)
        #expect(!masked.contains("ss12345"))
    }

    /// Nothing secret in it: the text is kept byte for byte, members named like secrets too (the
    /// notes mask by value only, never by name), and escapes elsewhere are left as written.
    @Test func aTextHoldingNoSecretIsKeptByteForByte() {
        let redaction = Redaction(secrets: ["s3cr3tvalue"])
        let body = "{\n  \"data\": \"{\\\"tokens_used\\\":15,\\\"keyboard\\\":\\\"azerty\\\"}\",\n  \"sessions\": 2,\n  \"e\": \"\\u00e9\"\n}"
        #expect(redaction.maskedDecodingJSON(body) == body)
        #expect(Redaction().maskedDecodingJSON(body) == body)
        // Not JSON: masked as text only.
        #expect(redaction.maskedDecodingJSON("a \\\"s3cr3tvalue\\\" b") == "a \\\"***\\\" b")
    }

    /// Text that holds JSON without being one document (an event stream, NDJSON) had its escaped
    /// secrets shown, in notes and in the call history (review 13 H1, H2).
    @Test func aSecretEscapedInTextHoldingJSONIsMasked() {
        let redaction = Redaction(secrets: ["AbC+dEf9"])
        let events = "event: m\ndata: {\"k\":\"AbC\\u002BdEf9\"}\n\n"
        #expect(redaction.maskedDecodingJSON(events) == "event: m\ndata: {\"k\":\"***\"}\n\n")
        let lines = Data("{\"k\":\"AbC\\u002BdEf9\"}\n{\"k\":\"x\\u002B\"}\n".utf8)
        #expect(String(decoding: redaction.maskedForRecording(lines, contentType: "application/x-ndjson"), as: UTF8.self)
                == "{\"k\":\"***\"}\n{\"k\":\"x\\u002B\"}\n")
    }
}
