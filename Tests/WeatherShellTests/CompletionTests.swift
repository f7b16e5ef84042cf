import Foundation
import Testing
@testable import WeatherShell

/// Tab completion inside an open block (its earlier lines come first in the text completed),
/// header names, `validate` values and `edit`'s names.
@ShellActor @Suite struct CompletionTests {
    @Test func insideATargetBlockFieldsThenTheirValues() {
        let run = ShellHarness(mode: .interactive).run
        #expect(run.completions(for: "target t {\n") == TargetDeclaration.fieldNames)
        #expect(run.completions(for: "target t {\nme") == ["method"])
        #expect(run.completions(for: "target t {\n  path /a\n  m") == ["method", "multipart"])
        #expect(run.completions(for: "target t { me") == ["method"])
        #expect(run.completions(for: "target t {\n  method ") == ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
        #expect(run.completions(for: "target t {\n  method P") == ["POST", "PUT", "PATCH"])
        #expect(run.completions(for: "target t {\n  method GET ").isEmpty)
        #expect(run.completions(for: "target t {\n  validate ") == ["none", "2xx", "2xx-3xx", "schema"])
        #expect(run.completions(for: "target t {\n  validate 2xx-") == ["2xx-3xx"])
        #expect(run.completions(for: "target t {\n  header Con") == ["Content-Type:"])
        #expect(run.completions(for: "target t {\n  header Accept:text/plain If-N") == ["If-None-Match:"])
        #expect(run.completions(for: "target t {\n  header ").count == Completion.headerNames.count)
        #expect(run.completions(for: "target t {\n  path /a ").isEmpty)
        // A path template, a `${name}` and a quoted brace open no block; a closed one is left.
        #expect(run.completions(for: "target t {\n  path /items/{id}\n  doc \"{\"\n  query q=${x}\n  ti") == ["timeout"])
        #expect(run.completions(for: "target t {\n  path /a\n}\nec") == ["echo"])
        #expect(run.completions(for: "# target t {\nec") == ["echo"])
    }

    @Test func insideAReactorStateAndActionThenStatements() {
        let run = ShellHarness(mode: .interactive).run
        #expect(run.completions(for: "reactor r {\n") == ["state", "action"])
        #expect(run.completions(for: "reactor r {\n  state n = 0\n  action go {\n    ec") == ["echo"])
        #expect(run.completions(for: "reactor r {\n  action go {\n    echo hi\n  }\n  a") == ["action"])
    }

    /// `emi<Tab>` in an action's body completed nothing, nor did `unless <Tab>` (reactors tester's L11).
    @Test func anActionsBodyOffersEmitAndUnlessItsBooleanFields() {
        let run = ShellHarness(mode: .interactive).run
        #expect(run.completions(for: "reactor k {\n  state busy = false\n  action go unless busy {\n    emi") == ["emit"])
        #expect(run.completions(for: "reactor k { state n = 0; action go { if 1 == 1 { emi") == ["emit"])
        #expect(run.completions(for: "reactor k { state n = 0; action go { call x } catch { emi") == ["emit"])
        #expect(!run.completions(for: "emi").contains("emit"), "not outside a reactor")
        #expect(run.completions(for: "reactor k {\n  state n = 0, busy = false, done = true, s = \"\"\n  action go unless ") == ["busy", "done"])
        #expect(run.completions(for: "reactor k {\n  state busy = false\n  state loading = true\n  action go v unless l") == ["loading"])
    }

    @Test func headerNamesForACallArgumentWrittenLikeAHeader() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("target t { path /a; query Alpha limit }")
        let run = shell.run
        #expect(run.completions(for: "call t A") == ["Alpha=", "Accept:", "Accept-Encoding:", "Accept-Language:", "Authorization:"])
        #expect(run.completions(for: "call t Content-") == ["Content-Type:"])
        #expect(run.completions(for: "call t User") == ["User-Agent:"])
        // A lower-case word is a parameter.
        #expect(run.completions(for: "call t l") == ["limit="])
        #expect(run.completions(for: "call t a").isEmpty)
    }

    @Test func editCompletesTargetsAndDeclaredReactors() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("target users { path /u }\nreactor quote { state a = 1; action refresh { emit a = 2 } }\ncounter increase")
        let run = shell.run
        #expect(run.completions(for: "edit ") == ["users", "quote"])
        #expect(run.completions(for: "edit q") == ["quote"])
        #expect(run.completions(for: "edit reactor ") == ["quote"])
        #expect(run.completions(for: "edit target ") == ["users"])
        #expect(run.completions(for: "ed") == ["edit"])
    }
}

/// Completion reads `'...'` and `"..."` as parts of their words, and completes files after `@` in a call.
@ShellActor @Suite struct CallItemCompletionTests {
    @Test func stringsHoldingBracesAndBlanksAreOneWordOfTheStatement() {
        #expect(Completion.previousWords(#"call t obj:='{"a": 1}' q="x; y" "#) == ["call", "t", #"obj:='{"a": 1}'"#, #"q="x; y""#])
        #expect(Completion.previousWords("call up f@a.raw;type=image/png ") == ["call", "up", "f@a.raw;type=image/png"])
        #expect(Completion.previousWords("echo a; call t ") == ["call", "t"])
        #expect(Completion.previousWords("target t {\n  path ") == ["path"])
    }

    @Test func afterAnAtACallCompletesFilePaths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("photo.png"))
        try Data().write(to: directory.appendingPathComponent("payload.json"))
        var snapshot = CompletionSnapshot()
        snapshot.directory = directory.path
        #expect(snapshot.completions(for: "call up f@ph") == ["f@photo.png"])
        #expect(snapshot.completions(for: "call up @p") == ["@payload.json", "@photo.png"])
        #expect(snapshot.completions(for: "call up @fi") == ["@fixtures/"])
    }

    /// A list of files shows their names in the directory they share, in columns as wide as the
    /// terminal, as bash and zsh list them (every match was a full path, one a line); candidates
    /// that are not files, or whose shared start names no directory, are shown as they are.
    @Test func filesAreListedByTheirNamesInColumns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("bin"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["zip", "zipcloak", "zipinfo"] { try Data().write(to: directory.appendingPathComponent("bin/" + name)) }
        var snapshot = CompletionSnapshot()
        snapshot.directory = directory.path
        let candidates = snapshot.completions(for: "source bin/z")
        #expect(candidates == ["bin/zip", "bin/zipcloak", "bin/zipinfo"])
        #expect(snapshot.listing(candidates, for: "source bin/z", width: 40) == "zip       zipcloak  zipinfo\n")
        #expect(snapshot.listing(candidates, for: "source bin/z", width: 20) == "zip       zipcloak\nzipinfo\n")
        let absolute = candidates.map { directory.path + "/" + $0 }
        #expect(snapshot.listing(absolute, for: "source /", width: 80) == "zip       zipcloak  zipinfo\n")
        #expect(snapshot.listing(["@bin/zip", "@bin/zipinfo"], for: "call t @", width: 80) == "zip      zipinfo\n")
        #expect(Completion.shownNames(["application/json", "application/xml"], directory: directory.path) == ["application/json", "application/xml"])
    }

    /// A path with a blank completes as one word of wsh's language, in a `"` string left open for
    /// the rest of the path (it was inserted bare, `source dir with space/`, two words); inside a
    /// string already open the path completes too, and `"`, `\\` and `$` are escaped in it.
    @Test func aPathWithABlankCompletesQuotedAndInsideAnOpenString() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir with space"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("dir with space/s.wsh"))
        try Data().write(to: directory.appendingPathComponent("a\"b$c.json"))
        try Data().write(to: directory.appendingPathComponent("plain.wsh"))
        var snapshot = CompletionSnapshot()
        snapshot.directory = directory.path
        #expect(snapshot.completions(for: "source dir") == [#""dir with space/"#])
        #expect(snapshot.completions(for: #"source "dir"#) == [#""dir with space/"#])
        #expect(snapshot.completions(for: #"source "dir with space/"#) == [#""dir with space/s.wsh"#])
        #expect(snapshot.completions(for: "source 'dir w") == ["'dir with space/"])
        #expect(snapshot.completions(for: "source pl") == ["plain.wsh"])
        #expect(snapshot.completions(for: #"source "pl"#) == [#""plain.wsh"#])
        #expect(snapshot.completions(for: "save dir") == [#""dir with space/"#])
        #expect(snapshot.completions(for: "call up @a") == [#"@"a\"b\$c.json"#])
        #expect(Completion.currentWord(#"source "dir with sp"#) == #""dir with sp"#)
        #expect(Completion.currentWord(#"echo "a b" c"#) == "c")
        #expect(Completion.currentWord(#"echo "a\" b"#) == #""a\" b"#)
        #expect(Completion.openQuote(of: #""dir with space/s.wsh"#) == "\"")
        #expect(Completion.openQuote(of: #""done" "#) == nil)
        #expect(Completion.openQuote(of: "plain.wsh") == nil)
    }
}
