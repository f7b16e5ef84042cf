import Foundation
import Synchronization

/// wsh's stdin as a request body: `@-`, and the body of `wsh post URL` with stdin piped in (as
/// HTTPie reads it). Read to its end once, on first use.
enum StandardInput {
    private static let state = Mutex<(free: Bool, contents: Data?)>((false, nil))

    /// Whether stdin may be read as a body: set at launch when wsh's statements do not come from
    /// stdin (`-c`, a script file, `wsh get URL`) and stdin is not a terminal.
    static var isFree: Bool {
        get { state.withLock { $0.free } }
        set { state.withLock { $0.free = newValue } }
    }

    /// Everything on stdin (nothing when it cannot be read), the same bytes on every call.
    static func contents() -> Data {
        state.withLock { state in
            if let contents = state.contents { return contents }
            let read = (try? FileHandle.standardInput.readToEnd()) ?? Data()
            state.contents = read
            return read
        }
    }
}
