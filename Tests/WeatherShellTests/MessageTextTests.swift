import Testing
@testable import WeatherShell

/// A message's values are masked, its wording never: a short secret that is part of a word wsh
/// writes (`doe` in "does") would garble the message and tell the secret.
@Suite struct MessageTextTests {
    static func mask(_ text: String) -> String {
        text.replacingOccurrences(of: "doe", with: "***")
    }

    @Test func theMaskReachesTheValuesOnly() {
        let quoted = "{{$x doe}}"
        let message: MessageText = "'\(quoted)': wsh does not know this value"
        #expect(message.text == "'{{$x doe}}': wsh does not know this value")
        #expect(message.masked(Self.mask) == "'{{$x ***}}': wsh does not know this value")
        let nested: MessageText = "in '\("does.json")': \(message)"
        #expect(nested.masked(Self.mask) == "in '***s.json': '{{$x ***}}': wsh does not know this value", "a message inside keeps its wording")
        let split = "do", rest = "e"
        let adjacent: MessageText = "\(split)\(rest) does"
        #expect(adjacent.masked(Self.mask) == "*** does", "values side by side are masked as one")
    }

    @Test func aDiagnosticOfAMessageTextMasksItsValues() {
        let message: MessageText = "'\("doe")': wsh does not know this value"
        let diagnostic = Diagnostic(.parse, message)
        #expect(diagnostic.rendered(mask: Self.mask) == "wsh: error: '***': wsh does not know this value\n")
        #expect(Diagnostic(.parse, "wsh does not know").rendered(mask: Self.mask) == "wsh: error: wsh ***s not know\n", "a plain message is masked whole")
    }

    /// Masked once with the secrets known then, and again with one learned later (as `wsh test`
    /// does at a file's end), the message and its notes keep their wording.
    @Test func aDiagnosticMaskedTwiceKeepsItsWording() {
        let message: MessageText = "'\("doe-name")': wsh does not know this value"
        let diagnostic = Diagnostic(.parse, message, notes: ["set @\("name") = value"])
        let first = diagnostic.masked { $0.replacingOccurrences(of: "name", with: "***") }
        #expect(first.message == "'doe-***': wsh does not know this value" && first.notes == ["set @*** = value"])
        let again = first.masked(Self.mask)
        #expect(again.message == "'***-***': wsh does not know this value", "\(again.message)")
        #expect(again.rendered(mask: Self.mask) == "wsh: error: '***-***': wsh does not know this value\nnote: set @*** = value\n")
    }
}
