import Foundation

/// The files `wsh test PATH...` runs: a file as given, a directory as every `*.wsh` under it
/// (links to directories followed, each directory once), sorted by path; hidden files and
/// directories (`.git`, `.build`, macOS's `._a.wsh`) are skipped, as a shell's `*.wsh` skips
/// them. A file named twice runs once.
enum TestFiles {
    /// The files to run; the test files under the directories given that were skipped as hidden
    /// (`.smoke.wsh`), and those that cannot be opened (a link to nothing, a name that is not
    /// UTF-8), for notes: a suite must not pass without a test nobody sees.
    static func collect(_ paths: [String]) throws(CommandFailure) -> (files: [String], hidden: [String], unopened: [String]) {
        var files: [String] = []
        var hidden: [String] = []
        var unopened: [String] = []
        for path in paths.isEmpty ? ["."] : paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                if path == "-" {
                    throw CommandFailure("wsh test reads no script from stdin (-): save the script to a file (smoke.wsh) and name that")
                }
                throw CommandFailure("no such file or directory: \(path)")
            }
            if isDirectory.boolValue {
                let found = scripts(under: path)
                guard !found.files.isEmpty else { throw CommandFailure("no .wsh files under \(path)") }
                files += found.files
                hidden += found.hidden
                unopened += found.unopened
            } else if let problem = notAFile(path) {
                throw CommandFailure(problem)
            } else {
                files.append(path)
            }
        }
        var seen = Set<String>()
        return (files.filter { seen.insert(realPath($0)).inserted }, hidden, unopened)
    }

    /// Every `*.wsh`, `*.http` and `*.rest` under `directory` (in any case: `C.WSH`), as paths that
    /// start with it, sorted; the hidden ones in directories that are not; and those that cannot be opened.
    private static func scripts(under directory: String) -> (files: [String], hidden: [String], unopened: [String]) {
        let prefix = directory == "." ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
        var found: [String] = []
        var hidden: [String] = []
        var unopened: [String] = []
        var pending = [""]
        // Walked with a list, not recursion: a deep tree cannot exhaust the stack. A directory is
        // walked once, however many links lead to it, so a link cycle (`d/up -> ..`) cannot loop.
        var walked: Set<String> = [realPath(directory)]
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
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else {
                    if isTestFile(name) { unopened.append(full) }
                    continue
                }
                if isDirectory.boolValue {
                    if walked.insert(realPath(full)).inserted { pending.append(path + "/") }
                } else if isTestFile(name) {
                    found.append(full)
                }
            }
        }
        let sorted = { (paths: [String]) in paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return (sorted(found), sorted(hidden), sorted(unopened))
    }

    /// Why `path`, which is no directory, cannot be a test file: the worker that runs it opens it
    /// in a process of its own, whose stdin is a pipe the runner never writes to, so `/dev/stdin`
    /// (a script piped in, or even a file given with `<`), `/dev/fd/N` (`<(...)`) and any pipe or
    /// device waited for ever.
    private static func notAFile(_ path: String) -> String? {
        let absolute = TestShard.key(path)
        var status = stat()
        let isRegular = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        // A regular file is fine wherever it is (`/dev/shm`), but not the runner's input named as one.
        let isInput = absolute == "/dev/stdin" || absolute.hasPrefix("/dev/fd/") || (absolute.hasPrefix("/proc/") && absolute.contains("/fd/"))
        guard !isRegular || isInput else { return nil }
        return "\(path) is not a test file's path (a pipe, a device or the runner's input): wsh test runs each file "
            + "in a worker process of its own, which cannot read it; save the script to a file (smoke.wsh) and name that"
    }

    /// `path` with every link in it followed.
    private static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `*.wsh`, `*.http` or `*.rest`, in any case (`C.WSH`).
    private static func isTestFile(_ name: String) -> Bool {
        name.lowercased().hasSuffix(".wsh") || Run.isHTTPFile(name)
    }
}
