import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `fuzz --report-junit` (docs tester's F21): a check that judged none of a target's answers is a
/// skipped test case, with why, not a passed one; a check that judged them passes.
@ShellActor @Suite struct FuzzReportTests {
    @Test func aCheckThatJudgedNothingIsSkippedNotPassed() async throws {
        let directory = try ScratchDirectory.make("wsh-fuzz-junit")
        defer { ScratchDirectory.remove(directory) }
        let server = try await TestServer.start()
        let shell = ShellHarness()
        await shell.run("""
            target echo { base \(server.baseURL); path /echo; query q=hello }
            fuzz echo --calls 6 --seed 1 --report-junit report.xml
            """, directory: directory.path)
        try await server.shutdown()
        let xml = try String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)
        // A hand-declared target with no required parameter: no input it refuses, no status or schema declared.
        #expect(xml.contains(#"<testcase classname="echo" name="invalid-accepted"><skipped message="no input the target refuses was answered"/></testcase>"#),
                "\(xml)\n\(shell.stderr)")
        #expect(xml.contains(#"<testcase classname="echo" name="schema"><skipped message="#), "\(xml)")
        #expect(xml.contains(#"<testcase classname="echo" name="server-error"></testcase>"#), "\(xml)")
        #expect(xml.contains(#"<testcase classname="echo" name="no-answer"></testcase>"#), "\(xml)")
        #expect(xml.contains(#"skipped="4""#), "invalid-accepted, status, content-type and schema: \(xml)")
    }
}
