import Foundation
import TestSupport
import Testing

/// `call ... > FILE` writes the answer's body as it arrives: no size limit, bounded memory, decoded
/// from its Content-Encoding a piece at a time; a followed redirect's body never reaches the file.
@Suite struct BodyToFileTests {
    /// The wsh binary's peak resident size in KB and its exit status, read by the shell's `time`.
    private static func runMeasured(_ script: URL, directory: URL) async throws -> (status: Int32, peakKB: Int, stderr: String) {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-f", "peak-kb=%M", WSHProcess.binary, script.path]
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = directory.path
            environment["XDG_STATE_HOME"] = nil
            environment["XDG_CONFIG_HOME"] = nil
            process.environment = environment
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.runSerially()
            let text = String(decoding: stderr.fileHandleForReading.readToEndRetryingInterrupts(), as: UTF8.self)
            process.waitUntilExitPolling()
            let peak = text.components(separatedBy: "peak-kb=").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? -1
            return (process.terminationStatus, peak, text)
        }
    }

    @Test func aHalfGigabyteBodyIsWrittenWithLittleMemoryAndNoLimit() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        // In memory (tmpfs) where there is one: 512 MB written to disk held up other tests' fsyncs
        // (their call histories) for seconds.
        let shared = URL(fileURLWithPath: "/dev/shm")
        let output = (FileManager.default.isWritableFile(atPath: shared.path) ? shared : directory)
            .appendingPathComponent("wsh-big-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: output) }
        let size = 512 * 1024 * 1024
        try await withLoopbackServer { server in
            let script = directory.appendingPathComponent("big.wsh")
            try "set max-body 1MB\nget \(server.baseURL)/large?bytes=\(size) > \(output.path)\n".write(to: script, atomically: true, encoding: .utf8)
            let (status, peakKB, stderr) = try await Self.runMeasured(script, directory: directory)
            #expect(status == 0, "\(stderr)")
            let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
            #expect((attributes[.size] as? Int) == size)
            #expect(peakKB > 0 && peakKB < 64 * 1024, "peak RSS \(peakKB) KB")
        }
    }

    @Test func aCompressedBodyIsDecodedPieceByPieceIntoTheFile() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        // Four megabytes of numbered lines arrive in many reads; gzip makes them about a tenth.
        let text = (0..<200_000).map { "line \($0) of the streamed answer\n" }.joined()
        try Data(text.utf8).write(to: directory.appendingPathComponent("plain.txt"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        gzip.arguments = ["-k", "plain.txt"]
        gzip.currentDirectoryURL = directory
        try gzip.runSerially()
        gzip.waitUntilExitPolling()
        let compressed = try Data(contentsOf: directory.appendingPathComponent("plain.txt.gz"))
        let routes = [
            "/text": StaticRoute(headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], body: Array(compressed)),
            "/cut": StaticRoute(headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")],
                                body: Array(compressed.prefix(compressed.count / 2))),
        ]
        try await withLoopbackServer(routes: routes) { server in
            let (result, _) = try await runScript("""
            set base \(server.baseURL)
            get /redirect?n=2 > redirected.json
            get /text > text.txt
            set compress off
            get /text > raw.gz
            set compress on
            get /cut > cut.txt
            """, directory: directory)
            #expect(try String(contentsOf: directory.appendingPathComponent("redirected.json"), encoding: .utf8) == #"{"redirected":true}"#)
            #expect(try Data(contentsOf: directory.appendingPathComponent("text.txt")) == Data(text.utf8))
            #expect(try Data(contentsOf: directory.appendingPathComponent("raw.gz")) == compressed)
            #expect(result.status != 0)
            #expect(result.stderr.contains("script.wsh:7:5: error: the answer to GET \(server.baseURL)/cut says Content-Encoding: gzip, but its body ends before the gzip data does"),
                    "\(result.stderr)")
        }
    }

    /// A call cut short (here a timeout after 10 of 1000 bytes) left those 10 bytes under the
    /// file's name, as if they were the answer, and had already emptied the good file there. The
    /// file now takes an answer only when the whole of it came: a failed call leaves it as it was
    /// (and makes none where there was none), a whole answer replaces it, through a link the link stays.
    @Test func aCutAnswerLeavesTheFileAsItWas() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let keep = directory.appendingPathComponent("keep.json")
            try "previous good content\n".write(to: keep, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.json").path, withDestinationPath: "keep.json")
            let cut = try await runScript("set timeout 300ms\nget \(server.baseURL)/stall-mid-body > keep.json\n", directory: directory).0
            #expect(cut.status != 0 && cut.stderr.contains("timed out"), "\(cut.stderr)")
            let missing = try await runScript("set timeout 300ms\nget \(server.baseURL)/stall-mid-body > fresh.json\n", directory: directory).0
            #expect(missing.status != 0)
            #expect(try String(contentsOf: keep, encoding: .utf8) == "previous good content\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["keep.json", "link.json", "script.wsh"])
            let whole = try await runScript("get \(server.baseURL)/large?bytes=10 > link.json\n", directory: directory).0
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(try Data(contentsOf: keep).count == 10)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("link.json").path) == "keep.json")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["keep.json", "link.json", "script.wsh"])
        }
    }

    /// What a new file in its place would lose is written in place or through (review): a
    /// dangling link was replaced by a file, with an empty file made at its target; a hard link's
    /// other name kept the old content.
    @Test func aLinkDanglingOrHardStaysALink() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let files = FileManager.default
            try files.createSymbolicLink(atPath: directory.appendingPathComponent("dang.json").path, withDestinationPath: "nowhere.json")
            let cut = try await runScript("set timeout 300ms\nget \(server.baseURL)/stall-mid-body > dang.json\n", directory: directory).0
            #expect(cut.status != 0)
            #expect(!files.fileExists(atPath: directory.appendingPathComponent("nowhere.json").path))
            let through = try await runScript("get \(server.baseURL)/large?bytes=10 > dang.json\n", directory: directory).0
            #expect(through.status == 0, "\(through.stderr)")
            #expect(try files.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("dang.json").path) == "nowhere.json")
            #expect(try Data(contentsOf: directory.appendingPathComponent("nowhere.json")).count == 10)
            try "old\n".write(to: directory.appendingPathComponent("one.json"), atomically: true, encoding: .utf8)
            try files.linkItem(atPath: directory.appendingPathComponent("one.json").path, toPath: directory.appendingPathComponent("two.json").path)
            let hard = try await runScript("get \(server.baseURL)/large?bytes=7 > one.json\n", directory: directory).0
            #expect(hard.status == 0, "\(hard.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("two.json")).count == 7)
            // Copied in whole at the end, not written in place: a cut call leaves both names as they were (review).
            let cutHard = try await runScript("set timeout 300ms\nget \(server.baseURL)/stall-mid-body > one.json\n", directory: directory).0
            #expect(cutHard.status != 0)
            #expect(try Data(contentsOf: directory.appendingPathComponent("two.json")).count == 7)
        }
    }

    @Test func anUnwritableFileIsAnErrorAtItsNameBeforeTheCall() async throws {
        try await withLoopbackServer { server in
            let (result, _) = try await runScript("get \(server.baseURL)/echo > /nonexistent-dir/out.json\n")
            #expect(result.status != 0)
            #expect(result.stderr.contains("script.wsh:1:"), "\(result.stderr)")
            #expect(result.stderr.contains("cannot write '/nonexistent-dir/out.json': no such file or directory"), "\(result.stderr)")
            #expect(server.hits("/echo") == 0)
        }
    }
}
