import Foundation

/// Whether a report may be written over `path`. A forgotten FILE after `--report-junit` takes the
/// next test's name, so a report never replaces a test file, nor an existing file that is not a
/// report of its kind (Hurl likewise refuses a `--report-junit` file that is not JUnit).
enum ReportFileGuard {
    /// The kinds of report written to one file, and how each one's text begins.
    enum Kind: String {
        case junit = "--report-junit", tap = "--report-tap", json = "--report-json", har = "--report-har"

        fileprivate var beginnings: [String] {
            switch self {
            case .junit: ["<?xml", "<testsuites", "<testsuite"]
            case .tap: ["TAP version"]
            case .json, .har: ["{"]
            }
        }
    }

    /// Why the report may not be written at `path`, or nil when it may.
    static func refusal(_ kind: Kind, at path: String) -> String? {
        if path.lowercased().hasSuffix(".wsh") || Run.isHTTPFile(path) {
            return "\(kind.rawValue) \(path): that is a test file's name; give the report a name of its own (\(kind.rawValue) FILE)"
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let start = String(decoding: (try? handle.read(upToCount: 64)) ?? Data(), as: UTF8.self)
            .drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if start.isEmpty || kind.beginnings.contains(where: { start.hasPrefix($0) }) { return nil }
        return "\(kind.rawValue) \(path): the file is there and is not such a report, so it is not replaced; remove it or choose another name"
    }
}
