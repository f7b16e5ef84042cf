import Foundation
import Targets

/// Ends wsh as a signal would have, so that the parent sees the same status (`wsh script | head`
/// stops by SIGPIPE, as `cat` does).
enum SignalDeath {
    /// Dies of `number` as if it had not been handled, once the names claimed for answers not
    /// written yet are removed (``FilePaths/removeUnwrittenClaims()``).
    static func die(of number: Int32) -> Never {
        FilePaths.removeUnwrittenClaims()
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
}
