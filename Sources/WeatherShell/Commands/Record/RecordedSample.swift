import Foundation
import Targets

/// Where `set record DIR` saves an answer: `DIR/TARGET.EXT` for a 200, `DIR/STATUS/TARGET.EXT`
/// for any other status, so two statuses never share a file (a 200 and a 201 would, were every
/// 2xx `TARGET.EXT`), nor two targets: a target's name holds no `/`, where `TARGET-STATUS.EXT`
/// (wsh 0.4.6 and before) gave target `user`'s 404 and target `user-404`'s 200 one file.
enum RecordedSample {
    /// `current.json`, `404/current.json`: a path relative to the record directory.
    static func fileName(target: String, status: Int, fileExtension: String) -> String {
        (status == 200 ? "" : "\(status)/") + target + "." + fileExtension
    }

    /// The extension for a body: from its Content-Type (`json` for `application/problem+json`);
    /// with no type, an unknown one or `application/octet-stream` (which says only "bytes"),
    /// `json` when the body parses as JSON, else `bin`.
    static func fileExtension(contentType: String?, body: Data) -> String {
        if let contentType, let known = MediaType.fileExtension(for: contentType), known != "bin" { return known }
        if !body.isEmpty, (try? JSONValue.parse(body)) != nil { return "json" }
        return "bin"
    }

    /// Makes `path` and the directories above it, as `mkdir -p` does; the reason in the system's
    /// words when it cannot, or when `path` is not a directory it may write in.
    static func makeDirectory(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { return String(cString: strerror(errno)).lowercased() }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "not a directory"
        }
        return access(path, W_OK) == 0 ? nil : String(cString: strerror(errno)).lowercased()
    }
}
