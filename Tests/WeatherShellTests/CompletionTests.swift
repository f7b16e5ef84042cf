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
}
