import Testing
import WeatherShell

@Suite struct QuickParseTests {
    @Test func plainFormsAreParsedWithoutTheFullParser() {
        #expect(LaunchOptions.quickParse(["--version"]) == .version)
        #expect(LaunchOptions.quickParse([]) == .run(LaunchOptions()))
        #expect(LaunchOptions.quickParse(["-c", "exit 3"]) == .run(LaunchOptions(command: "exit 3")))
        #expect(LaunchOptions.quickParse(["--stub", "--norc", "-c", "x"]) == .run(LaunchOptions(command: "x", stub: true, noRC: true)))
        #expect(LaunchOptions.quickParse(["t.wsh", "a=1", "b=2"]) == .run(LaunchOptions(file: "t.wsh", assignments: ["a=1", "b=2"])))
        #expect(LaunchOptions.quickParse(["-"]) == .run(LaunchOptions(file: "-")))
        #expect(LaunchOptions.quickParse(["--", "-odd.wsh"]) == .run(LaunchOptions(file: "-odd.wsh")))
    }

    @Test func anythingElseGoesToTheFullParser() {
        for arguments in [["--help"], ["-h"], ["-c"], ["-c", "a", "-c", "b"], ["-c", "x", "file.wsh"], ["--stub", "--stub"],
                          ["--version", "x"], ["--bogus"], ["file.wsh", "-x"], ["--stub=1"],
                          // swift-argument-parser takes no dashed value after -c: a usage error.
                          ["-c", "--stub"], ["-c", "-x"], ["-c", "--"]] {
            #expect(LaunchOptions.quickParse(arguments) == nil, "\(arguments)")
        }
    }
}
