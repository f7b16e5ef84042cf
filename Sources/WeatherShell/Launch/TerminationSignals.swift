import Dispatch
import Foundation
import Plugins

/// On SIGTERM and SIGHUP, writes the lines log files hold, then dies of the signal as it would
/// have (so the parent sees the same status). Without this a `kill` lost the last ~100 ms of log.
enum TerminationSignals {
    private nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; call once, from the launch. A signal the parent set to be ignored
    /// (as `nohup` does for SIGHUP) stays ignored.
    static func install() {
        for number in [SIGTERM, SIGHUP] {
            let previous = signal(number, SIG_IGN)
            if isIgnore(previous) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                LogFile.flushAll()
                signal(number, SIG_DFL)
                kill(getpid(), number)
            }
            source.resume()
            sources.append(source)
        }
    }

    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
