import Testing
@testable import WeatherShell

/// A credential typed after `plugin auth` is `***` in what the history keeps; variables stay.
@Suite struct LiteralCredentialsTests {
    @Test(arguments: [
        ("plugin auth bearer abc123xyz host x", "plugin auth bearer *** host x"),
        ("plugin auth on bearer \"two words\" everywhere", "plugin auth on bearer *** everywhere"),
        ("plugin auth basic alice:s3cret host x", "plugin auth basic alice:*** host x"),
        ("plugin auth basic \"al ice:pa ss\"", "plugin auth basic \"al ice:***\""),
        ("plugin auth basic \"al ice\":pw$x", "plugin auth basic \"al ice\":***"),
        ("plugin auth header X-Api-Key:k-123", "plugin auth header X-Api-Key:***"),
        ("echo hi; plugin auth bearer tok-1 # note", "echo hi; plugin auth bearer *** # note"),
        ("plugin auth bearer \"abc", "plugin auth bearer ***"),
        // A raw string is closed with its own quote, so the line kept still reads.
        ("plugin auth header 'X-Api-Key:k 1'", "plugin auth header 'X-Api-Key:***'"),
        ("plugin auth basic 'al\"ice':'p w'", "plugin auth basic 'al\"ice':***"),
        ("plugin auth bearer 'a $b'", "plugin auth bearer ***"),
        ("plugin auth bearer 'abc", "plugin auth bearer ***"),
        ("plugin auth digest alice:s3cret host x", "plugin auth digest alice:*** host x"),
        ("plugin auth on digest \"al ice:pa ss\" everywhere", "plugin auth on digest \"al ice:***\" everywhere"),
        ("plugin auth digest \"abc", "plugin auth digest ***"),
    ])
    func literalCredentialsAreHidden(line: String, stored: String) {
        #expect(LiteralCredentials.hidden(in: line) == stored)
    }

    @Test(arguments: [
        "plugin auth bearer $token host x",
        "plugin auth basic $user:$pass",
        "plugin auth basic alice:$pass",
        "plugin auth digest $user:$pass",
        "plugin auth header \"X-Key:$key\"",
        "echo 'plugin auth bearer abc'",
        "plugin auth basic $credential",
        "plugin auth off",
        "echo bearer abc123 basic a:b",
        "plugin logger on verbose",
    ])
    func variablesAndOtherStatementsStayAsTyped(line: String) {
        #expect(LiteralCredentials.hidden(in: line) == line)
    }

    @Test func aContinuedLineIsHiddenInItsStatement() {
        #expect(LiteralCredentials.hidden(in: "plugin auth \\\nbearer abc123xyz") == "plugin auth \\\nbearer ***")
    }
}
