import Foundation
import Targets

/// `wsh test --shard K/N`: the K-th of N slices of the files, the same on every machine that is
/// given the same files in whatever order. By count, the i-th file in sorted order goes to slice i mod N; with the durations of an
/// earlier run (`--durations FILE`, that run's JSON report), the longest files are placed first,
/// each in the slice with the least time so far, and a file the report does not name counts as
/// the median of those it does. Within a slice, files keep their order.
struct TestShard: Equatable, Sendable {
    /// 1-based.
    var index: Int
    var count: Int

    /// `2/3`; nil when it is not a slice of a count from 1 to 1000.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1000).contains(count), (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    /// The files of this slice, in their order.
    func select(_ files: [String], durations: [String: Double] = [:]) -> [String] {
        guard count > 1 else { return files }
        var slices = [Int](repeating: 0, count: files.count)
        // Each file's place among the files sorted by path, however it was typed (`./t1.wsh`,
        // `t1.wsh`, `sub/../t1.wsh`): the order every machine agrees on.
        let directory = Self.key(FileManager.default.currentDirectoryPath)
        let paths = files.map { Self.relativeKey($0, under: directory) }
        let ranks = Dictionary(uniqueKeysWithValues: files.indices.sorted { (paths[$0], $0) < (paths[$1], $1) }.enumerated().map { ($1, $0) })
        if durations.isEmpty {
            for position in files.indices { slices[position] = (ranks[position] ?? position) % count }
        } else {
            let known = files.compactMap { durations[Self.key($0)] }.sorted()
            let median = known.isEmpty ? 1 : known[known.count / 2]
            let weighed = files.indices.map { (position: ranks[$0] ?? $0, index: $0, milliseconds: durations[Self.key(files[$0])] ?? median) }
            var totals = [Double](repeating: 0, count: count)
            // Longest first; equal ones in file order, so every machine places them alike.
            for file in weighed.sorted(by: { ($0.milliseconds, -$0.position) > ($1.milliseconds, -$1.position) }) {
                let lightest = totals.indices.min { (totals[$0], $0) < (totals[$1], $1) } ?? 0
                slices[file.index] = lightest
                totals[lightest] += file.milliseconds
            }
        }
        return files.indices.filter { slices[$0] == index - 1 }.map { files[$0] }
    }

    /// A path as the report writes it and as the run names it, made comparable.
    static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// ``key(_:)`` relative to `directory` (a ``key(_:)`` itself, the current directory) when
    /// under it: the same on every machine, wherever the repository was cloned.
    static func relativeKey(_ path: String, under directory: String) -> String {
        let absolute = key(path)
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Each file's milliseconds in a JSON report of `wsh test` (`--report-json`), by path.
    static func durations(fromReport bytes: [UInt8]) throws(CommandFailure) -> [String: Double] {
        guard let report = try? JSONValue.parse(bytes), case .array(let files)? = report["files"] else {
            throw CommandFailure("--durations takes the JSON report of an earlier run (wsh test --report-json FILE)")
        }
        var durations: [String: Double] = [:]
        for file in files {
            guard let path = file["path"]?.string, let given = file["milliseconds"] else { continue }
            // A negative or made-up time would put every file in one slice.
            guard let milliseconds = given.double, milliseconds.isFinite, (0...Double(Int32.max)).contains(milliseconds) else {
                throw CommandFailure("--durations: '\(path.shortened())' has milliseconds \(given.compactText.shortened()): a time is milliseconds, 0 or more, as wsh test --report-json writes it")
            }
            durations[key(path)] = milliseconds
        }
        return durations
    }
}
