import Foundation

/// The files `wsh test PATH...` runs: a file as given, a directory as every `*.wsh` under it,
/// sorted by path; hidden files and directories (`.git`, `.build`, macOS's `._a.wsh`) are skipped,
/// as a shell's `*.wsh` skips them. A file named twice runs once.
enum TestFiles {
    /// The files to run, and the test files under the directories given that were skipped as
    /// hidden (`.smoke.wsh`), for a note: a suite must not pass without a test nobody sees.
    static func collect(_ paths: [String]) throws(CommandFailure) -> (files: [String], hidden: [String]) {
        var files: [String] = []
        var hidden: [String] = []
        for path in paths.isEmpty ? ["."] : paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure("no such file or directory: \(path)")
            }
            if isDirectory.boolValue {
                let found = scripts(under: path)
                guard !found.files.isEmpty else { throw CommandFailure("no .wsh files under \(path)") }
                files += found.files
                hidden += found.hidden
            } else {
                files.append(path)
            }
        }
        var seen = Set<String>()
        return (files.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path).inserted }, hidden)
    }

    /// Every `*.wsh`, `*.http` and `*.rest` under `directory` (in any case: `C.WSH`), as paths that
    /// start with it, sorted; and the hidden ones in directories that are not.
    private static func scripts(under directory: String) -> (files: [String], hidden: [String]) {
        let prefix = directory == "." ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
        var found: [String] = []
        var hidden: [String] = []
        var pending = [""]
        // Walked with a list, not recursion: a deep tree cannot exhaust the stack. Symbolic links
        // to directories are not followed, so a link cycle cannot loop.
        while let relative = pending.popLast() {
            let absolute = prefix + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute.isEmpty ? "." : absolute) else { continue }
            for name in names {
                let path = relative + name
                if name.hasPrefix(".") {
                    // macOS's `._a.wsh` copies are no tests, and a Mac volume has one for each.
                    if !name.hasPrefix("._"), isTestFile(name) { hidden.append(prefix + path) }
                    continue
                }
                var isDirectory: ObjCBool = false
                let full = prefix + path
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil
                    if !isLink { pending.append(path + "/") }
                } else if isTestFile(name) {
                    found.append(full)
                }
            }
        }
        let sorted = { (paths: [String]) in paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return (sorted(found), sorted(hidden))
    }

    /// `*.wsh`, `*.http` or `*.rest`, in any case (`C.WSH`).
    private static func isTestFile(_ name: String) -> Bool {
        name.lowercased().hasSuffix(".wsh") || Run.isHTTPFile(name)
    }
}
