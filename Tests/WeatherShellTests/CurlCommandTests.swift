import Testing
@testable import WeatherShell

/// Command lines split as sh and bash split them, and read as curl reads its options.
@Suite struct CurlCommandTests {
    @Test func quotingAsShAndBashReadIt() throws {
        let words = try ShellCommandWords.split(#"""
            curl 'a b' "c \"d\" \$e \x" f\ g \
              $'h\'i\tj\x41\u00e9\101\n' "k"'l'm $HOME
            """#)
        #expect(words == ["curl", "a b", "c \"d\" $e \\x", "f g", "h'i\tjAéA\n", "klm", "$HOME"])
        #expect(throws: ShellCommandWords.Failure.self) { try ShellCommandWords.split("curl 'open") }
        #expect(throws: ShellCommandWords.Failure.self) { try ShellCommandWords.split("curl $'open") }
    }

    @Test func clusteredAndAttachedShortOptions() throws {
        let command = try CurlCommand(words: ["curl", "-sSLXPUT", "-HX-A: 1", "-d", "a=1", "--data-raw", "@b", "https://h/x", "-kv"])
        #expect(command.method == "PUT")
        #expect(command.headers.map { "\($0.name)=\($0.value)" } == ["X-A=1"])
        #expect(command.data.count == 2)
        #expect(command.url == "https://h/x")
        #expect(command.notes == ["-k: a target does not turn off certificate checks"])
        #expect(throws: CurlCommand.Failure.self) { try CurlCommand(words: ["curl", "https://a", "https://b"]) }
        #expect(throws: CurlCommand.Failure.self) { try CurlCommand(words: ["curl", "https://a", "-H"]) }
    }
}
