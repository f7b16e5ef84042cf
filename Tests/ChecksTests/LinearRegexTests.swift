import Testing
@testable import Checks

@Suite struct LinearRegexTests {
    @Test(arguments: [
        ("a.*b", "xxaxxbxx", true), ("^abc$", "abc", true), ("^abc$", "abcd", false),
        ("colou?r", "color", true), ("\\d{3}-\\d{4}", "call 555-1234 now", true), ("\\d{3}-\\d{4}", "55-1234", false),
        ("[A-Z][a-z]+", "hello World", true), ("[^a-z]", "abc", false), ("(cat|dog)s?$", "hotdogs", true),
        ("^[^@]+@", "ana@example.com", true), ("\\bis\\b", "this island", false), ("\\bis\\b", "it is", true),
        ("(?i)SUWON", "suwon", true), ("x{2,3}", "axxb", true), ("x{2,3}", "axb", false), ("a|", "zzz", true),
        ("서울", "날씨 서울 맑음", true), ("^.$", "😀", true), ("a\\.b", "a.b", true), ("a\\.b", "axb", false),
        ("[\\d.]+", "v1.2", true), ("^$", "", true), ("\\u00e9", "café", true),
        // `\s` is JavaScript's, as JSON Schema reads a pattern: U+00A0 was in it, U+2003 and U+FEFF were not.
        ("^\\s$", "\u{A0}", true), ("^\\s$", "\u{2003}", true), ("^\\s$", "\u{FEFF}", true), ("^\\s$", "\u{3000}", true),
        ("^\\s$", "\u{200B}", false), ("^\\S$", "\u{2003}", false),
    ])
    func matchesLikeABacktrackingEngine(pattern: String, text: String, expected: Bool) throws {
        #expect(try LinearRegex(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    /// `(?i)` is an equivalence, as in Python's `re`: a scalar with several case forms matched one
    /// of them only (the Kelvin sign matched `(?i)k`, not `(?i)K`; `ς` matched `(?i)Σ`, not `(?i)σ`).
    @Test(arguments: [
        ("(?i)^k$", "\u{212A}"), ("(?i)^K$", "\u{212A}"), ("(?i)^\u{212A}$", "K"), ("(?i)^\u{212A}$", "k"),
        ("(?i)^s$", "\u{17F}"), ("(?i)^S$", "\u{17F}"), ("(?i)^\u{17F}$", "s"), ("(?i)^σ$", "ς"), ("(?i)^Σ$", "ς"), ("(?i)^ς$", "Σ"),
        ("(?i)^å$", "\u{212B}"), ("(?i)^Å$", "\u{212B}"), ("(?i)^[K]$", "\u{212A}"), ("(?i)^[k-m]$", "\u{212A}"), ("(?i)^[σ]$", "ς"),
        ("(?i)^SUWON$", "suwon"), ("(?i)^ß$", "\u{1E9E}"),
    ])
    func ignoringCaseIsAnEquivalence(pattern: String, text: String) throws {
        #expect(try LinearRegex(pattern).matches(text), "\(pattern) on \(text)")
        #expect(try !LinearRegex(pattern).matches(text + "x"), "\(pattern) on \(text)x")
    }

    /// `[[:digit:]]` is the digit class, as in RE2, Hurl and grep: it was read as the set of
    /// `[`, `:`, `d`, `i`, `g`, `t` before a `]`, so `"12345" not matches "[[:digit:]]"` passed.
    @Test(arguments: [
        ("[[:digit:]]", "12345", true), ("[[:digit:]]", "t]", false), ("^[[:alpha:]]$", "p]", false), ("^[[:alpha:]]+$", "abc", true),
        ("^[[:space:]]+$", " \t\n", true), ("^[[:alnum:]_]+$", "a_1Z", true), ("[[:upper:]]", "abc", false), ("^[[:lower:]]+$", "abc", true),
        ("^[[:punct:]]+$", "!-/:@[`{~", true), ("^[[:punct:]]$", "a", false), ("^[[:xdigit:]]+$", "0fA9", true), ("[[:xdigit:]]", "g", false),
        ("^[[:word:]]+$", "a_9", true), ("^[[:^digit:]]+$", "ab", true), ("^[[:^digit:]]+$", "a1", false), ("^[x[:digit:]-]+$", "x1-2", true),
        ("^[[:]+$", "[:", true), ("^[[:digit]+$", "digit:", true),
    ])
    func readsPOSIXClassesInBracketsAsRE2Does(pattern: String, text: String, expected: Bool) throws {
        #expect(try LinearRegex(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    /// Leading flags as Rust's regex (Hurl's) and PCRE write them: `(?m)` puts `^` and `$` at each
    /// line, `(?s)` lets `.` take a newline, several together; `\A` and `\z` stay the text's ends.
    /// `(?s)` and `(?m)` were "unknown group syntax" (Hurl tester #10).
    @Test(arguments: [
        ("(?m)^World$", "Hello\nWorld\n", true), ("^World$", "Hello\nWorld\n", false), ("(?m)^Hello$", "Hello\nWorld", true),
        ("(?s)Hello.World", "Hello\nWorld", true), ("Hello.World", "Hello\nWorld", false), ("(?ms)^a.b$", "x\na\nb\ny", true),
        ("(?im)^WORLD$", "Hello\nworld", true), ("(?m)\\Aworld", "hello\nworld", false), ("(?m)hello\\z", "hello\nworld", false),
        ("(?:x)|y", "y", true),
    ])
    func leadingFlagsChangeAnchorsAndTheDot(pattern: String, text: String, expected: Bool) throws {
        #expect(try LinearRegex(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    @Test func anUnknownFlagIsAnErrorNamingIt() {
        #expect(throws: RegexError.self) { try LinearRegex("(?x)a b") }
        do { _ = try LinearRegex("(?U)a+") } catch { #expect(error.message.contains("the flag 'U' is not supported"), "\(error.message)") }
    }

    @Test func anUnknownPOSIXClassIsAnError() {
        #expect(throws: RegexError(message: "unknown class '[:digits:]'; classes: alnum, alpha, ascii, blank, cntrl, digit, graph, lower, print, punct, space, upper, word, xdigit",
                                   offset: 1)) { try LinearRegex("[[:digits:]]") }
    }

    @Test func picksTheLeftmostMatchAndTheGroupsABacktrackingEngineWould() throws {
        let match = try #require(try LinearRegex("(\\w+)@(\\w+)\\.com").firstMatch(in: "mail ana@example.com or bo@x.com"))
        #expect(match.text == "ana@example.com")
        #expect(match.groups == ["ana", "example"])
        #expect(try LinearRegex("a+?").firstMatch(in: "aaa")?.text == "a")
        #expect(try LinearRegex("a+").firstMatch(in: "baaa")?.text == "aaa")
        #expect(try LinearRegex("(x)?y").firstMatch(in: "y")?.groups == [nil])
    }

    @Test func catastrophicPatternsFinishInLinearTime() throws {
        // Each takes minutes on a backtracking engine; here a bounded number of steps.
        let nested = try LinearRegex("^(a+)+$")
        #expect(try nested.matches(String(repeating: "a", count: 30) + "!") == false)
        let body = String(repeating: "a", count: 100_000)
        #expect(try LinearRegex("a.*b").matches(body) == false)
        #expect(try LinearRegex("(a|aa)*c").matches(body) == false)
    }

    @Test func stopsWhenTheCallerAsks() throws {
        let body = String(repeating: "a", count: 100_000)
        #expect(throws: RegexMatchFailure.interrupted) { try LinearRegex("a.*b").matches(body, shouldStop: { true }) }
    }

    @Test func refusesWhatNeedsBacktrackingOrIsMalformed() {
        for pattern in ["(a)\\1", "a(?=b)", "(?<=a)b", "(ab", "ab)", "a**", "*a", "[z-a]", "x{5,2}", "a{1001}", "\\q", "a\\"] {
            #expect(throws: RegexError.self, "\(pattern)") { try LinearRegex(pattern) }
        }
        let deep = String(repeating: "(", count: 1_000_000) + String(repeating: ")", count: 1_000_000)
        #expect(throws: RegexError.self) { try LinearRegex(deep) }
        #expect(throws: RegexError.self) { try LinearRegex("(?:(?:a{1000}){1000})") }
    }

    @Test func longChainsOfOptionalPartsDoNotRecurse() throws {
        #expect(try LinearRegex("a{0,1000}b").matches(String(repeating: "a", count: 1000) + "b"))
        #expect(try LinearRegex(String(repeating: "a?", count: 20_000)).matches("a"))
    }
}

@Suite struct LinearRegexBudgetTests {
    @Test func emptyMovesCountTowardTheBudget() throws {
        // 98,000 saves and almost no consuming instructions: the work is all in empty moves.
        let regex = try LinearRegex("(?:(){1000}){49}x")
        let text = String(repeating: "a", count: 2_000)
        #expect(throws: RegexMatchFailure.tooCostly) { try regex.matches(text, budget: 10_000_000) }
    }

    @Test func stopsPastItsStepBudget() throws {
        let text = String(repeating: "a", count: 10_000)
        #expect(throws: RegexMatchFailure.tooCostly) { try LinearRegex("a*a*a*a*b").matches(text, budget: 20_000) }
        #expect(try LinearRegex("a*a*a*a*b").matches(text, budget: 1_000_000) == false)
    }
}
