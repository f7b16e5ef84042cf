import TestSupport
import Testing
@testable import WeatherShell

@Suite struct ParserTests {
    func parse(_ text: String) throws -> [Statement] {
        try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text)).statements
    }

    /// The diagnostic's line and column, and its message.
    func parseError(_ text: String) -> (line: Int, column: Int, message: String)? {
        let file = SourceFile(name: "t.wsh", directory: "/", text: text)
        do {
            _ = try Parser.parse(file)
            return nil
        } catch {
            guard let span = error.span else { return nil }
            let (line, column) = file.location(of: span.start)
            return (line, column, error.message)
        }
    }

    /// A literal value that can never be valid is a parse error at its word, so nothing of the file
    /// runs (it ran the lines before it, then failed with exit 3); one that holds a `$variable`
    /// is checked when it runs.
    @Test(arguments: [("repeat abc { echo x }", 8, "'abc' is not a number of rounds"),
                      ("repeat -1 { echo x }", 8, "'-1' is not a number of rounds"),
                      ("repeat 1000001 { echo x }", 8, "'1000001' is not a number of rounds"),
                      ("sleep 1e400", 7, "'1e400' is not a duration"), ("sleep soon", 7, "'soon' is not a duration"),
                      ("until 1 == 2 every 1x max 3 { echo x }", 20, "'1x' is not a duration"),
                      ("until 1 == 2 max 0 { echo x }", 18, "'0' is not a number of rounds"),
                      ("target t { base http://a; validate 3xx }", 36, "validate takes none, 2xx, 2xx-3xx or status codes"),
                      ("target t { base http://a; validate 200,700 }", 36, "validate takes none"),
                      ("target t { base http://a; retry 101 }", 33, "retry takes a count from 0 to 100"),
                      ("target t { base http://a; timeout 0s }", 35, "a timeout is a duration"),
                      ("target t { base http://a; method \"\" }", 34, "'' is not an HTTP method"),
                      ("target t { base http://a; method \"GET /x\" }", 34, "'GET /x' is not an HTTP method")])
    func aLiteralThatCanNeverBeValidIsAParseError(statement: String, column: Int, message: String) {
        let found = parseError("echo ran-before\n" + statement)
        #expect(found?.line == 2 && found?.column == column, "\(statement): \(String(describing: found))")
        #expect(found?.message.hasPrefix(message) == true, "\(statement): \(String(describing: found))")
    }

    @Test func valuesThatAreValidOrHoldVariablesParse() throws {
        _ = try parse("""
            repeat 0 { echo x }
            repeat $n { echo x }
            sleep 500ms
            sleep $pause
            until 1 == 1 every 10ms max 1000000 { echo x }
            until 1 == 1 every $d max $n { echo x }
            target t { base http://a; validate 200,404; retry 0; timeout 2s; method PROPFIND }
            target u { base http://a; validate schema; retry $r; timeout $t; method $m }
            target v { base http://a; validate 2xx-3xx; retry 100; method get }
            """)
    }

    @Test func letWithWordEnvAndQuery() throws {
        let statements = try parse("""
        let city = "Suwon"
        let key = env OPENWEATHER_API_KEY or "demo"
        let t = .main.temp
        let code = status
        """)
        guard case .assign(_, .word(let word)) = statements[0].kind else { Issue.record("word"); return }
        #expect(word.literal == "Suwon")
        guard case .assign(_, .env(let name, let fallback, false, _)) = statements[1].kind else { Issue.record("env"); return }
        #expect(name.literal == "OPENWEATHER_API_KEY" && fallback?.literal == "demo")
        guard case .assign(_, .query(let query)) = statements[2].kind else { Issue.record("query"); return }
        #expect(query.source == .path([.key("main"), .key("temp")]))
        guard case .assign(_, .query(let status)) = statements[3].kind else { Issue.record("status"); return }
        #expect(status.source == .status)
    }

    @Test func queries() throws {
        let statements = try parse(#"print .list[0].dt_txt .list[-1] ."key with space" .list | length header Content-Type body time"#)
        guard case .print(let values) = statements[0].kind else { Issue.record("print"); return }
        let sources = values.compactMap { if case .query(let query) = $0 { query.source } else { nil } }
        #expect(sources == [.path([.key("list"), .index(0), .key("dt_txt")]), .path([.key("list"), .index(-1)]),
                            .path([.key("key with space")]), .path([.key("list")]), .header("Content-Type"), .body, .time])
        guard case .query(let piped) = values[3] else { Issue.record("pipe"); return }
        #expect(piped.filters == [.length])
    }

    /// `bytes|length` and `status|toString`, as `.list|length`: a filter written against a named query.
    @Test func aNamedQueryTakesAFilterWrittenAgainstIt() throws {
        let statements = try parse("print bytes|length status|toString bytes")
        guard case .print(let values) = statements[0].kind else { Issue.record("print"); return }
        let queries = values.compactMap { if case .query(let query) = $0 { query } else { nil } }
        #expect(queries.map(\.source) == [.bytes, .status, .bytes])
        #expect(queries.map(\.filters) == [[.length], [.toString], []])
        #expect(parseError("print bytes|nope")?.message == "unknown filter 'nope'")
    }

    /// A filter name that is not one says which it likely is, or how wsh writes Hurl's; a wrong
    /// number of values, or a strftime code there is not, is an error where the filter is written.
    @Test func aWrongFilterSaysWhatIsMeant() throws {
        func notes(_ text: String) -> [String] {
            do {
                _ = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text))
                return []
            } catch {
                return [error.message] + error.notes.filter { !$0.hasPrefix("filters: ") }
            }
        }
        #expect(notes("print .a | base64UrlSafeDecod") == ["unknown filter 'base64UrlSafeDecod'", "did you mean 'base64UrlSafeDecode'?"])
        #expect(notes("print .a | tohex") == ["unknown filter 'tohex'", "did you mean 'toHex'?"])
        #expect(notes("print .a|utf8decode") == ["unknown filter 'utf8decode'", "did you mean 'utf8Decode'?"])
        #expect(notes("print bytes|charsetdecode") == ["unknown filter 'charsetdecode'", "did you mean 'charsetDecode'?"])
        #expect(notes("print redirects | location").first == "unknown filter 'location'")
        #expect(notes("print redirects | location").dropFirst().first?.hasPrefix("Hurl's redirects nth 0 location is hops | jsonpath") == true)
        #expect(notes("print bytes | decode gb2312").dropFirst().first == "Hurl's decode is charsetDecode NAME: bytes | charsetDecode gb2312")
        #expect(notes("print .a | urlQueryParam") == ["'urlQueryParam' takes 1 value", "for example: | urlQueryParam page"])
        #expect(notes("print .a | charsetDecode") == ["'charsetDecode' takes 1 value", "for example: | charsetDecode iso-8859-1"])
        #expect(notes("print .a | nth") == ["'nth' takes 1 value", "for example: | nth 0"])
        #expect(notes("print .a | replace x") == ["'replace' takes 2 values", "for example: | replace \"-\" \" \""])
        #expect(notes("print .a[ 1 ]").first == "missing ']' in query: no blanks go inside '[ ]' (.list[0]), but in '[? ]'")
        #expect(notes("print .a[99999999999999999999]").first == "index 99999999999999999999 is too large")
        #expect(notes(#"print .a | dateFormat "%Y %Q""#).first?.hasPrefix("'dateFormat': '%Q' is not a strftime code; the codes are %Y %C") == true)
        #expect(notes(#"print .a | toDate "%Y %Q""#).first?.hasPrefix("'toDate': '%Q' is not a strftime code") == true)
        #expect(notes(#"print .a | toDate "%+" | dateFormat "%A" | urlQueryParam x | htmlEscape | toHex | count"#) == [])
    }

    @Test func targetBlockKeepsFieldsInOrder() throws {
        let statements = try parse("""
        target current {
          doc      "Current temperature at a coordinate"
          base     https://api.open-meteo.com/v1
          path     /forecast
          method   GET
          query    latitude=37.27 longitude=127.11 current=temperature_2m
          header   Accept:application/json
          sample   @fixtures/current.json status 200
          validate 2xx
          timeout  10s
        }
        """)
        guard case .target(let declaration) = statements[0].kind else { Issue.record("target"); return }
        #expect(declaration.name.literal == "current")
        #expect(declaration.fields.map(\.name) == ["doc", "base", "path", "method", "query", "header", "sample", "validate", "timeout"])
        #expect(declaration.fields[4].arguments.compactMap(\.literal) == ["latitude=37.27", "longitude=127.11", "current=temperature_2m"])
    }

    @Test func unknownTargetFieldSuggestsTheRightOne() {
        let error = parseError("target x {\n  pahth /a\n}")
        #expect(error?.line == 2 && error?.column == 3)
        #expect(error?.message == "unknown target field 'pahth'")
    }

    @Test func callWithArgumentsAndRedirect() throws {
        let statements = try parse("call create name=x count:=3 Accept-Language:ko > out.json")
        guard case .call(let call) = statements[0].kind else { Issue.record("call"); return }
        #expect(call.target.literal == "create")
        #expect(call.arguments.compactMap(\.literal) == ["name=x", "count:=3", "Accept-Language:ko"])
        #expect(call.output?.literal == "out.json")
    }

    @Test func expectations() throws {
        let statements = try parse("""
        expect status == 200
        expect .main.temp > -90
        expect .list | length >= 1
        expect header Content-Type contains json
        expect .weather exists
        expect .weather not exists
        expect not .name == "Seoul"
        """)
        let ops = statements.compactMap { if case .expect(let e) = $0.kind { e } else { nil } }
        #expect(ops.map(\.op) == [.equal, .greater, .greaterOrEqual, .contains, .exists, .exists, .equal])
        #expect(ops.map(\.negated) == [false, false, false, false, false, true, true])
        #expect(ops[1].expected?.literal == "-90")
    }

    @Test func expectationWithoutOperatorIsAnError() {
        #expect(parseError("expect .main.temp 5")?.message == "expected an operator")
        // A mistyped operator is named, with the caret under it (a newcomer's caret was under `404`).
        let equals = parseError("expect status = 404")
        #expect(equals?.message == "'=' is not an operator; did you mean '=='?")
        #expect(equals?.column == 15)
        #expect(parseError("expect .a contain \"x\"")?.message == "'contain' is not an operator; did you mean 'contains'?")
        // Hurl's `isBoolean`, an operator against its values, a `|` against the path with the filter after a blank.
        #expect(parseError("expect .b isBoolean")?.message == "'isBoolean' is not an operator; did you mean 'isBool'?")
        #expect(parseError("expect .num==4")?.message == "'==' needs a blank on each side")
        #expect(parseError("expect .num ==4")?.message == "'==' needs a blank on each side")
        #expect(parseError("expect .num!=4")?.message == "'!=' needs a blank on each side")
        #expect(parseError("expect .s| length == 3")?.message == "a blank goes before '|' when the filter is the next word")
        // A list written with blanks, as JSON and jq write it, says how to write it.
        #expect(parseError("expect .arr == [1, \"1\", true]")?.message == "a list or object written bare has no blanks")
        #expect(parseError("expect .a == x y")?.message == "expected one value; quote text with blanks")
        // Python's `in` and Perl's `=~`: the caret was under the value after them.
        let inList = parseError("expect status in [404]")
        #expect(inList?.message == "'in' is not an operator; did you mean 'contains'?" && inList?.column == 15)
        let perl = parseError("expect .name =~ \"^B\"")
        #expect(perl?.message == "'=~' is not an operator; did you mean 'matches'?" && perl?.column == 14)
    }

    /// `set | grep stub` said "unknown option '|'"; `let 도시` that a name is letters, as 도시 is.
    @Test func setWithAPipeAndANonASCIINameSayWhatIsWrong() {
        #expect(parseError("set | grep stub")?.message == "set takes no pipe")
        #expect(parseError("let 도시 = 1")?.message == "a variable name is ASCII letters, digits and _, not starting with a digit")
    }

    @Test func reactorDeclaration() throws {
        let statements = try parse("""
        reactor quote {
          state content = "", author = "", loading = false, error = ""
          action refresh {
            emit loading = true
            call quote
            emit content = .content, author = .author, loading = false
          } catch {
            emit error = $error, loading = false
          }
        }
        """)
        guard case .reactor(let reactor) = statements[0].kind else { Issue.record("reactor"); return }
        #expect(reactor.state.compactMap(\.name.literal) == ["content", "author", "loading", "error"])
        #expect(reactor.state.compactMap(\.initial.literal) == ["", "", "false", ""])
        #expect(reactor.actions.count == 1)
        #expect(reactor.actions[0].body.count == 3)
        #expect(reactor.actions[0].catchBody?.count == 1)
        guard case .emit(let fields) = reactor.actions[0].body[2].kind else { Issue.record("emit"); return }
        #expect(fields.compactMap(\.name.literal) == ["content", "author", "loading"])
    }

    /// Each was accepted: the second field echoed too, the second action and the second
    /// parameter ignored. The error is at the second and names the first.
    @Test func aSecondStateFieldActionOrParameterOfOneNameIsAnError() {
        let field = parseError("reactor r {\n  state v = 1, v = 2\n}")
        #expect(field.map { [$0.line, $0.column] } == [2, 16])
        #expect(field?.message == "state field 'v' is declared twice")
        let action = parseError("reactor r {\n  state n = 0\n  action a { emit n = 1 }\n  action a { emit n = 2 }\n}")
        #expect(action.map { [$0.line, $0.column] } == [4, 10])
        #expect(action?.message == "action 'a' is declared twice")
        let parameter = parseError("reactor r {\n  state n = 0\n  action a city city { emit n = 1 }\n}")
        #expect(parameter.map { [$0.line, $0.column] } == [3, 17])
        #expect(parameter?.message == "parameter 'city' is declared twice")
    }

    @Test func theFirstOfTwoNamesIsNamedInANote() {
        do {
            _ = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: "reactor r {\n  state n = 0\n  action a { emit n = 1 }\n  action a { emit n = 2 }\n}"))
            Issue.record("parsed")
        } catch {
            #expect(error.notes == ["the first 'a' is at line 3, column 10"])
        }
    }

    /// On the next line, the statement before had already ended: the error said `'else' does not take a block`.
    @Test func elseOrCatchOnTheLineAfterItsBlockSaysWhereItBelongs() {
        let otherwise = parseError("if 1 == 1 { echo a }\nelse { echo b }")
        #expect(otherwise.map { [$0.line, $0.column] } == [2, 1])
        #expect(otherwise?.message == "'else' must follow the '}' of its 'if' block on the same line")
        let caught = parseError("reactor r {\n  state n = 0\n  action a { emit n = 1 }\n  catch { emit n = 2 }\n}")
        #expect(caught.map { [$0.line, $0.column] } == [4, 3])
        #expect(caught?.message == "'catch' must follow the '}' of its action's block on the same line")
        #expect(parseError("if 1 == 1 { echo a } else { echo b }") == nil)
    }

    /// `} else if COND {` was refused ("expected '{' after 'else'"; language tester's D30): it
    /// chains another `if`, as sh's `elif`; a chain counts toward the nesting bound.
    @Test @ShellActor func elseIfChainsAnotherIf() async {
        let shell = ShellHarness()
        let halt = await shell.run("for n in 1 2 3 { if $n == 1 { echo one } else if $n == 2 { echo two } else { echo other } }\n"
                                   + "if 1 == 2 { echo a } else if 1 == 3 { echo b }\necho end")
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout == "one\ntwo\nother\nend\n", "\(shell.stdout)")
        #expect(parseError("if 1 == 1 { echo a } else if { echo b }") != nil)
        let chain = "if 1 == 2 { echo a }" + String(repeating: " else if 1 == 2 { echo a }", count: 300)
        #expect(parseError(chain)?.message == "blocks nested deeper than 256")
    }

    /// `reactor emit { ... }` was declared, and `emit go` could never run it.
    @Test func aReactorNamedAfterAWordOfTheLanguageIsAnError() {
        for word in ["emit", "else", "catch"] {
            let found = parseError("reactor \(word) { state n = 0; action go { emit n = 1 } }")
            #expect(found.map { [$0.line, $0.column] } == [1, 9])
            #expect(found?.message == "'\(word)' is a word of the language; a reactor needs another name")
        }
    }

    @Test func emitOutsideAnActionIsAnError() {
        #expect(parseError("emit a = 1")?.message == "'emit' is only allowed inside a reactor action")
    }

    @Test func errorsCarryExactLocations() {
        #expect(parseError("echo ok\n\n\n\n\n\nlet x = \"oops") .map { [$0.line, $0.column] } == [7, 9])
        #expect(parseError("echo a\n}\n").map { [$0.line, $0.column] } == [2, 1])
        #expect(parseError("target x {\n  path /a\n").map { [$0.line, $0.column, $0.message == "unclosed '{'" ? 1 : 0] } == [1, 10, 1])
        #expect(parseError("set colour on").map { [$0.line, $0.column] } == [1, 5])
        #expect(parseError("let = 3")?.message == "wrong arguments for 'let'")
        #expect(parseError("echo { }")?.message == "'echo' does not take a block")
    }

    /// `get URL q={"a":1}`: the brace ends the word, as the lexical rules say; the error says how to send one.
    @Test func aBraceInsideAWordGetsANoteOnQuotingIt() throws {
        func notes(_ text: String) -> [String] {
            do {
                _ = try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: text))
                return []
            } catch {
                return error.notes
            }
        }
        #expect(notes("get http://h/x?q={\"a\":1}").contains { $0.contains("written inside quotes") })
        #expect(notes("get http://h/x q=={\"a\":1}").contains { $0.contains("written inside quotes") })
        #expect(!notes("echo hi { }").contains { $0.contains("written inside quotes") }, "a block after a blank is a block")
        #expect(try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: "get 'http://h/x?q={\"a\":1}'")).statements.count == 1)
        // A bare object after a blank opens a block too: the note shows the quoted form, which compares as JSON.
        #expect(notes("expect .o == {\"a\":1}").contains { $0.hasPrefix("an object is written inside quotes") })
        #expect(notes("let o = {}").contains { $0.hasPrefix("an object is written inside quotes") })
        #expect(!notes("echo hi {echo}").contains { $0.hasPrefix("an object") })
        #expect(try Parser.parse(SourceFile(name: "t.wsh", directory: "/", text: "expect .o == '{\"a\":1}'")).statements.count == 1)
    }

    @Test func unknownCommandsParseAsCommandsForLaterDeclaration() throws {
        let statements = try parse("quote refresh fast")
        guard case .command(let name, let arguments) = statements[0].kind else { Issue.record("command"); return }
        #expect(name.literal == "quote" && arguments.count == 2)
    }
}

/// Every ```` ```wsh ```` block of README.md and docs/ parses, also the illustrative ones that are
/// not run (DocumentedExamplesTests runs the others): a statement the language no longer has
/// fails here with the page and line. A synopsis (`[N]`, `on|off`) belongs in a ```` ```text ```` block.
@Suite struct DocumentedCodeParsesTests {
    @Test func everyWshBlockParses() throws {
        let blocks = try DocumentedBlock.all().filter { $0.language == "wsh" }
        #expect(blocks.count >= 10)
        for block in blocks {
            let input = block.promptInput.isEmpty ? block.lines : block.promptInput
            let file = SourceFile(name: block.page, directory: "/", text: input.joined(separator: "\n") + "\n")
            do {
                _ = try Parser.parse(file)
            } catch {
                Issue.record("\(block) (a block of \(block.page) from that line):\n\(error.rendered())")
            }
        }
    }
}
