import Testing
import TestSupport
@testable import WeatherShell

@Suite struct LexerTests {
    func tokens(_ text: String) throws -> [Token] {
        var lexer = Lexer(file: SourceFile(name: "t.wsh", directory: "/", text: text))
        return try lexer.tokenize()
    }

    func words(_ text: String) throws -> [Word] {
        try tokens(text).compactMap { if case .word(let word) = $0 { word } else { nil } }
    }

    @Test func wordsAndStringsWrittenTogetherFormOneArgument() throws {
        let result = try words(#"q="a b" User-Agent:"wsh 1.0" lat=37.27"#)
        #expect(result.map(\.literal) == ["q=a b", "User-Agent:wsh 1.0", "lat=37.27"])
        #expect(result[0].isQuoted)
        #expect(!result[2].isQuoted)
    }

    @Test func statementsEndAtNewlineAndSemicolon() throws {
        let kinds = try tokens("echo a; echo b\necho c").map { token -> String in
            switch token {
            case .word(let word): word.literal ?? "?"
            case .end: ";"
            case .endOfInput: "EOF"
            case .openBrace: "{"
            case .closeBrace: "}"
            case .pipe(let pipe): "|" + pipe.text
            }
        }
        #expect(kinds == ["echo", "a", ";", "echo", "b", ";", "echo", "c", "EOF"])
    }

    @Test func aBarAfterACommandThatPrintsTakesTheRestOfTheLineUpToAnUnquotedSemicolon() throws {
        let found = try tokens("call x | awk '{print $1; print \"a;b\"}' ; echo y|z\nprint .a | length").compactMap { token -> String? in
            switch token {
            case .pipe(let pipe): "|" + pipe.text
            case .word(let word): word.literal
            default: nil
            }
        }
        #expect(found == ["call", "x", "|awk '{print $1; print \"a;b\"}'", "echo", "y|z", "print", ".a", "|", "length"])
    }

    @Test func variablesInWordsAndStrings() throws {
        let word = try #require(try words(#""x is $x and ${y}z" \$no"#).first)
        #expect(word.variableNames == ["x", "y"])
        let escaped = try words(#""\$no""#)[0]
        #expect(escaped.literal == "$no")
    }

    @Test func escapesInStrings() throws {
        #expect(try words(#""a\"b\\c\nd\te""#)[0].literal == "a\"b\\c\nd\te")
    }

    @Test func commentsStartAtTheBeginningOfAWord() throws {
        #expect(try words("echo a # comment here").compactMap(\.literal) == ["echo", "a"])
        #expect(try words("echo https://x/#frag").compactMap(\.literal) == ["echo", "https://x/#frag"])
        #expect(try words("echo \"# not a comment\"").compactMap(\.literal) == ["echo", "# not a comment"])
    }

    @Test func backslashNewlineContinuesTheStatement() throws {
        let result = try tokens("echo a \\\n  b\n")
        #expect(result.filter { if case .end = $0 { true } else { false } }.count == 1)
        #expect(try words("echo a \\\n  b").compactMap(\.literal) == ["echo", "a", "b"])
    }

    @Test func pathTemplatesAreWordsNotBlocks() throws {
        #expect(try words("path /items/{id}/parts/{part-no}").compactMap(\.literal) == ["path", "/items/{id}/parts/{part-no}"])
        #expect(try words("path {id}").compactMap(\.literal) == ["path", "{id}"])
        #expect(!Lexer.needsMoreInput("path /a/{id}\n"))
        #expect(Lexer.needsMoreInput("target t {\n  path /a/{id}\n"))
    }

    @Test func bracesAreTokens() throws {
        let result = try tokens("target x {\n}")
        #expect(result.contains { if case .openBrace(let span) = $0 { span.start == 9 } else { false } })
        #expect(result.contains { if case .closeBrace(let span) = $0 { span.start == 11 } else { false } })
    }

    @Test func unterminatedStringIsAnErrorAtTheQuote() {
        let file = SourceFile(name: "t.wsh", directory: "/", text: "echo ok\nlet x = \"abc\necho next")
        var lexer = Lexer(file: file)
        #expect {
            try lexer.tokenize()
        } throws: { error in
            guard let diagnostic = error as? Diagnostic, let span = diagnostic.span else { return false }
            let location = file.location(of: span.start)
            return diagnostic.kind == .parse && location == (2, 9) && diagnostic.message == "unterminated string"
        }
    }

    @Test func unicodeEscapesAreCharactersAndSurrogatePairsJoin() throws {
        #expect(try words(#""caf\u00e9 \u00C9""#)[0].literal == "café É")
        #expect(try words(#""\uD83D\uDE00!""#)[0].literal == "😀!")
        #expect(try words(#""\u001a\u0009""#)[0].literal == "\u{1A}\t")
    }

    @Test(arguments: [
        (#"echo "\u12""#, "'\\u' needs four hex digits", 6),
        (#"echo "\uzzzz""#, "'\\u' needs four hex digits", 6),
        (#"echo "\uD83D x""#, "'\\uD83D' must be followed by the second half of its surrogate pair, \\uDC00 to \\uDFFF", 6),
        (#"echo "\uDE00""#, "'\\uDE00' is the second half of a surrogate pair, with no first half before it", 6),
        (#"echo "a\u0000.png""#, "'\\u0000' cannot be in a string", 7),
    ])
    func aBadUnicodeEscapeIsAnErrorAtItsBackslash(text: String, message: String, offset: Int) {
        do {
            _ = try tokens(text)
            Issue.record("\(text) lexed")
        } catch let error as Diagnostic {
            #expect(error.message == message)
            #expect(error.span?.start == offset)
        } catch {
            Issue.record("expected a Diagnostic, got \(error)")
        }
    }

    @Test(arguments: ["a\u{1A}b", "tab\there", "bell\u{7}", "del\u{7F}", "crlf\r\n", "é😀", "$x \"q\" \\"])
    func aValueWrittenAsTheLanguageWritesItReadsBackTheSame(text: String) throws {
        let written = Run.quoted(text)
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(try words("echo " + written)[1].literal == text)
    }

    @Test func unknownEscapeIsAnError() {
        #expect(throws: Diagnostic.self) { try tokens(#"echo "a\qb""#) }
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let file = SourceFile(name: "t", directory: "/", text: "echo \"é\" $x")
        var lexer = Lexer(file: file)
        let tokens = try lexer.tokenize()
        guard case .word(let word) = tokens[2] else { Issue.record("expected a word"); return }
        #expect(file.location(of: word.span.start) == (1, 10))
    }

    /// The column in `file:line:col` counts Unicode scalars; the caret under the quoted line counts the
    /// terminal's columns, two for a wide character, none for a combining mark.
    @Test(arguments: [
        ("echo \"서울🎉\" $nope", 12, 14),
        ("echo \"e\u{301}\" $nope", 11, 9),
        ("echo \"é\" $nope", 10, 9),
        // One family: three people joined by zero-width joiners, drawn in two columns; a skin tone takes none.
        ("echo \"👨\u{200D}👩\u{200D}👧\" $nope", 14, 10),
        ("echo \"👍\u{1F3FD}☔\" $nope", 12, 12),
    ])
    func theCaretStandsUnderTheWordInTerminalColumns(text: String, column: Int, caretColumn: Int) throws {
        let file = SourceFile(name: "t", directory: "/", text: text)
        var lexer = Lexer(file: file)
        guard case .word(let word) = try lexer.tokenize()[2] else { Issue.record("expected a word"); return }
        #expect(file.location(of: word.span.start).column == column)
        let rendered = Diagnostic(.runtime, "x", file: file, span: word.span).rendered()
        let caretLine = rendered.split(separator: "\n")[2]
        #expect(caretLine == String(repeating: " ", count: 3 + caretColumn) + "^~~~~", "\(rendered)")
    }

    @Test func continuationIsNeededInsideOpenBlocksOnly() {
        #expect(Lexer.needsMoreInput("target x {\n"))
        #expect(Lexer.needsMoreInput("target x {\n  path /a\n"))
        #expect(!Lexer.needsMoreInput("target x {\n  path /a\n}\n"))
        #expect(Lexer.needsMoreInput("echo a \\\n"))
        #expect(!Lexer.needsMoreInput("echo \"{\"\n"))
        #expect(!Lexer.needsMoreInput("echo \"unterminated {\n"))
        #expect(!Lexer.needsMoreInput("echo a # {\n"))
        #expect(!Lexer.needsMoreInput("}\n"))
        // Inside a block an open string waits for the block's end: the error comes then, whole.
        #expect(Lexer.needsMoreInput("repeat 1 {\n  echo \"step one\n"))
        #expect(Lexer.needsMoreInput("target q {\n  sample '{\"a\": 1\n"))
        #expect(!Lexer.needsMoreInput("repeat 1 {\n  echo \"step one\n  delete /x\n}\n"))
        // A backslash before the line break does not carry a string on: it ends on its line.
        #expect(!Lexer.needsMoreInput("repeat 1 {\n  echo \"abc\\\n}\n"))
        #expect(!Lexer.needsMoreInput("echo \"abc\\\n"))
    }

    /// The prompt feeds an entry line by line, each scanned once: that must decide as a scan of
    /// the whole entry at once does, for random lines of braces, quotes, comments, templates,
    /// escapes and trailing backslashes.
    @Test func scanningLineByLineDecidesAsScanningTheWholeEntry() {
        let seed = SeededGenerator.seed()
        var random = SeededGenerator(seed: seed)
        let pieces = ["{", "}", "\"", "'", "\\", "#", " ", "a", "/{id}", "\\\"", "{x", "\r", ";", "$"]
        for _ in 0..<5000 {
            let lines = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            }
            var scanner = EntryScanner()
            for line in lines { scanner.add(line + "\n") }
            let whole = lines.map { $0 + "\n" }.joined()
            #expect(scanner.needsMoreInput == Lexer.needsMoreInput(whole),
                    "seed \(seed) (\(SeededGenerator.seedVariable)=\(seed)): \(whole.debugDescription)")
        }
    }

    @Test func invalidUTF8AndControlBytesDoNotCrash() throws {
        let garbage = String(decoding: [0xFF, 0xFE, 0x00, 0x01, 0x7B, 0x22, 0xC3], as: UTF8.self)
        let file = SourceFile(name: "t", directory: "/", text: garbage)
        #expect(throws: Diagnostic.self) { _ = try Parser.parse(file) }
    }

    @Test func aRawStringHasNoEscapesNoExpansionAndJoinsTheWordBesideIt() throws {
        let result = try words(#"obj:='{"a": [1, 2]}' q='$x \n \q' 'a;b'c"d" {id}"#)
        #expect(result.count == 4)
        #expect(result[0].literal == #"obj:={"a": [1, 2]}"#)
        #expect(result[0].variableNames.isEmpty)
        #expect(result[1].literal == #"q=$x \n \q"#)
        #expect(result[1].variableNames.isEmpty)
        #expect(result[2].literal == "a;bcd")
        #expect(result[2].isQuoted)
        // The part's span is the string's text, between its quotes.
        #expect(result[0].parts[1].span == SourceSpan(start: 6, end: 19))
        #expect(try words("''")[0].literal == "")
        #expect(try words(#"say "it's""#)[1].literal == "it's")
        #expect(try words(#"x'"'"#)[0].literal == #"x""#)
    }

    @Test func anUnterminatedRawStringIsAnErrorAtItsQuote() {
        do {
            _ = try tokens("echo 'open\necho next")
            Issue.record("expected an error")
        } catch let error as Diagnostic {
            #expect(error.message == "unterminated string")
            #expect(error.span == SourceSpan(start: 5, end: 6))
            #expect(error.rendered().contains("   echo 'open\n        ^"))
        } catch {
            Issue.record("expected a Diagnostic, got \(error)")
        }
    }

    @Test func aSemicolonBeforeTypeStaysInAFileItemsWord() throws {
        #expect(try words("call up f@a.raw;type=image/png x=1").map(\.literal) == ["call", "up", "f@a.raw;type=image/png", "x=1"])
        // Anywhere else `;` ends the statement, `; type=x` with a blank too.
        let kinds = try tokens("echo a;echo b; type=x").map { token -> String in
            if case .word(let word) = token { return word.literal ?? "?" }
            if case .end = token { return ";" }
            return ""
        }
        #expect(kinds == ["echo", "a", ";", "echo", "b", ";", "type=x", ""])
    }

    @Test func aRawStringOpensNoBlockAndNeedsNoContinuation() {
        #expect(!Lexer.needsMoreInput("call t obj:='{\"a\": [1, 2]'\n"))
        #expect(!Lexer.needsMoreInput("echo 'unterminated {\n"))
        #expect(Lexer.needsMoreInput("target x { json obj:='}'\n"))
        // A backslash in a raw string escapes nothing, so its closing quote closes it.
        #expect(Lexer.needsMoreInput("target x { body 'a\\' \n"))
    }
}
