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
            source.setEventHandler { die(of: number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Writes the lines log files hold, then dies of `number` as if it had not been handled.
    static func die(of number: Int32) -> Never {
        LogFile.flushAll()
        signal(number, SIG_DFL)
        // Raised on this thread, unblocked here first (dispatch and loop threads block signals),
        // so that it is delivered before this call could return.
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        exit(128 + number)
    }

    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
