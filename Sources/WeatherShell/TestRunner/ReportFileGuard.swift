import Foundation
import Targets

/// Whether a report may be written over `path`. A forgotten FILE after `--report-junit` takes the
/// next test's name, so a report never replaces a test file, nor an existing file that is not a
/// report of its kind (Hurl likewise refuses a `--report-junit` file that is not JUnit).
enum ReportFileGuard {
    /// The kinds of report written to one file, and how each one's text begins, blanks left out.
    enum Kind: String {
        case junit = "--report-junit", tap = "--report-tap", json = "--report-json", har = "--report-har", html = "--report-html"

        /// What the report's first bytes say, blanks left out: wsh's JSON report and HAR (its
        /// creator named), JUnit's root element named by wsh, TAP 14 with wsh's plan first and
        /// its subtests, the HTML report's title. Any JSON, XML or HTML was taken for a report,
        /// and so was another tool's JUnit or TAP: a `package.json`, a page or pytest's report was replaced.
        fileprivate func begins(_ compact: String) -> Bool {
            switch self {
            case .junit: compact.hasPrefix(#"<testsuitesname="wsh"#) || (compact.hasPrefix("<?xml") && compact.contains(#"?><testsuitesname="wsh"#))
            case .tap: compact.wholeMatch(of: /TAPversion141\.\.[0-9]+(#Subtest:.*)?/.dotMatchesNewlines()) != nil
            case .json: compact.hasPrefix(#"{"errored":"#)
            case .har: compact.hasPrefix(#"{"log":{"version":"1.2","creator":{"name":"wsh""#)
            case .html: compact.hasPrefix("<!DOCTYPEhtml>") && compact.contains("<title>wshtest:")
            }
        }
    }

    /// What `path` names, the same however that file is named: a regular file's device and inode
    /// (through a symbolic or hard link, `./r.json`), else the path with every link in it followed
    /// (a link to a report not written yet, `out/../r.json`). `/dev/stdout` and `/dev/stderr` keep
    /// their names: two reports may follow each other on one log.
    static func identity(of path: String) -> String {
        // Not resolved: both streams are one terminal, pipe or log as often as not (`2>&1`).
        if ReplacingFile.standardStream(at: path) != nil { return path }
        let file = ReplacingFile.linkTarget(path)
        var status = stat()
        if stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            return "inode \(status.st_dev) \(status.st_ino)"
        }
        let directory = FilePaths.directory(of: file), name = file.split(separator: "/").last.map(String.init) ?? file
        return URL(fileURLWithPath: directory.isEmpty ? "." : directory).standardizedFileURL.resolvingSymlinksInPath().path + "/" + name
    }

    /// Why the report may not be written at `path`, or nil when it may.
    static func refusal(_ kind: Kind, at path: String) -> String? {
        if path.lowercased().hasSuffix(".wsh") || Run.isHTTPFile(path) {
            return "\(kind.rawValue) \(path): that is a test file's name; give the report a name of its own (\(kind.rawValue) FILE)"
        }
        // Only a regular file is read: `/dev/stdout` at a terminal or a pipe would wait for input.
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, ReplacingFile.standardStream(at: path) == nil,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let start = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
            .filter { $0 != "\u{FEFF}" && !$0.isWhitespace }
        if start.isEmpty || kind.begins(start) { return nil }
        return "\(kind.rawValue) \(path): the file is there and is not such a report, so it is not replaced; remove it or choose another name"
    }
}
