import Foundation
import Targets
import Testing
import TestSupport

/// Printed commands are read back by a real `sh`: every quoted word must come back as its text,
/// whatever bytes it holds, and a binary body sent through `printf` must reach the server unchanged.
@Suite(.serialized) struct ShellWordTests {
    /// Runs `sh -c SCRIPT` and returns its stdout bytes.
    static func sh(_ script: String, environment: [String: String] = [:]) async throws -> [UInt8] {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.runSerially()
            let data = output.fileHandleForReading.readToEndRetryingInterrupts()
            process.waitUntilExitPolling()
            return Array(data)
        }
    }

    static let texts = [
        "", "plain", "a b", "it's", "'", "''", "\"", "$HOME", "`date`", "back\\slash", "line\nbreak\r\n",
        "tab\there", "!bang", "서울 café 🍩", "%s %d", "a'\"$`\\!*?[]{}~#&;|<>()",
    ]

    @Test(arguments: texts) func aQuotedWordReadsBackAsItsText(_ text: String) async throws {
        let printed = try await Self.sh("printf %s " + ShellWord(text).quoted)
        #expect(printed == Array(text.utf8), "\(ShellWord(text).quoted)")
    }

    @Test(arguments: texts) func aVariableBesideTextReadsBackAsItsValue(_ text: String) async throws {
        let word = ShellWord(pieces: [.text(text), .variable("WSH_WORD_TEST"), .text("x" + text), .variable("WSH_WORD_TEST")])
        let printed = try await Self.sh("printf %s " + word.quoted, environment: ["WSH_WORD_TEST": "v$a'l"])
        #expect(printed == Array((text + "v$a'l" + "x" + text + "v$a'l").utf8), "\(word.quoted)")
    }

    @Test func aVariableWordIsDoubleQuotedWhenItCanBe() {
        #expect(ShellWord(pieces: [.text("Authorization: Bearer "), .variable("GITHUB_TOKEN")]).quoted == "\"Authorization: Bearer $GITHUB_TOKEN\"")
        #expect(ShellWord(pieces: [.variable("A"), .text("_b")]).quoted == "\"${A}_b\"")
        #expect(ShellWord(pieces: [.text("it's $"), .variable("A")]).quoted == "'it'\\''s $'\"${A}\"")
    }

    @Test func aBinaryBodyGoesThroughPrintfUnchanged() async throws {
        var bytes = (0...255).map { UInt8($0) }
        bytes += Array("%s\\n'\"".utf8)
        try await withTestServer { server in
            let request = Request(method: .put, url: server.baseURL + "/echo/bytes",
                                  headers: [Header(name: "Content-Type", value: "application/octet-stream")], body: Data(bytes))
            let printed = try RequestCommandPrinter(tool: .curl, purpose: .run, redaction: Redaction()).command(for: request)
            #expect(printed.text.hasPrefix("printf '"))
            #expect(printed.text.unicodeScalars.allSatisfy { $0.isASCII })
            let echo = try JSONValue.parse(try await Self.sh(printed.text + " --silent"))
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            #expect(echo["bodyHex"]?.string == hex)
            #expect(echo["method"]?.string == "PUT")
        }
    }
}
