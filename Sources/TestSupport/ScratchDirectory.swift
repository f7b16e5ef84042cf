import Foundation
import Synchronization

/// Directories a test process makes under the system's temporary directory, removed when the
/// process exits normally (`exit`; not when it crashes or is killed). Made by hand and left
/// there, a full run of the tests left about 4,000 behind (a scratch HOME for every wsh the
/// end-to-end tests ran, nginx's and tinyproxy's work, certificates).
public enum ScratchDirectory {
    private static let made = Mutex<[URL]>([])
    private static let removalAtExit: Void = {
        atexit { ScratchDirectory.removeAll() }
    }()

    /// A new directory `PREFIX-UUID` under the temporary directory, removed when the process exits normally.
    /// Readable by all by default: nginx's workers run as nobody.
    public static func make(_ prefix: String, permissions: Int = 0o755) throws -> URL {
        _ = removalAtExit
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: permissions])
        made.withLock { $0.append(url) }
        return url
    }

    /// Removes `url` and what it holds now, rather than at exit.
    public static func remove(_ url: URL) {
        made.withLock { made in made.removeAll { $0 == url } }
        try? FileManager.default.removeItem(at: url)
    }

    private static func removeAll() {
        let urls = made.withLock { made in
            defer { made.removeAll() }
            return made
        }
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}
