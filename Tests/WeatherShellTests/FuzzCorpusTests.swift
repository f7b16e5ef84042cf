import Foundation
import Checks
import Testing
@testable import WeatherShell

/// Replays the fuzzer's corpus through the exercises the fuzzer runs (`scripts/fuzz`), so an input
/// that once crashed wsh or broke a rule stays fixed: `Fuzz/corpus/regressions` holds each finding,
/// `Fuzz/corpus/seed` the starting inputs, deep nesting and 100 KB lines among them.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz").appendingPathComponent("corpus")

    static func files(in folder: String) throws -> [URL] {
        let directory = corpus.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: ["seed", "regressions"])
    func everyInputKeepsTheRules(folder: String) throws {
        let files = try Self.files(in: folder)
        #expect(!files.isEmpty, "no inputs in Fuzz/corpus/\(folder)")
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            // The same calls as Fuzz/FuzzEntry.swift.
            let text = String(decoding: bytes, as: UTF8.self)
            let problems = FrontEndExercise.problems(in: text) + JSONExercise.problems(in: bytes) + ChecksExercise.problems(in: text)
            #expect(problems.isEmpty, "Fuzz/corpus/\(folder)/\(file.lastPathComponent): \(problems.joined(separator: "; "))")
        }
    }
}
