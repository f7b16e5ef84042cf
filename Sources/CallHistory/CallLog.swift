import Foundation
import Synchronization

/// The call history: every call a shell makes, its secrets masked, in an SQLite database that
/// several wsh processes write at once (write-ahead log, a busy timeout of 5 s).
///
/// ``record(_:sizeLimit:)`` only queues the call. Two threads of this log's own, started by the
/// first call, do the rest: a masker, at the lowest priority a thread can give itself (nice 19,
/// SCHED_BATCH: it runs on a free core and gives way at once to the shell or a server), masks the
/// queued calls in batches of up to 128; a committer, at batch priority (it does not preempt the
/// shell when it wakes, and is never starved while it holds SQLite's lock), writes each masked
/// batch in one transaction. Masking is most of the work and holds no lock, so it may wait for
/// a free core as long as it likes. Whoever needs the queue empty helps instead of waiting on the
/// masker: ``flush(within:)`` (before `history` reads), ``finish(within:)`` (at exit, for a
/// bounded time) and a call that finds the queue full (10,000 calls or 64 MB of bodies) write
/// what is queued themselves, through the same connection, taking over the batch the masker
/// holds; only the committer's use of the database is waited for. The calls keep their order. A
/// database that is damaged, locked past the timeout or cannot be written is said once
/// (``takeNotices()``), in words for the user, and the shell goes on.
public final class CallLog: @unchecked Sendable {
    /// The database file, found on first use: a shell that makes no call does not look.
    public var path: String {
        location.withLock { location in
            if case .found(let path) = location { return path }
            guard case .unresolved(let find) = location else { return "" }
            let path = find()
            location = .found(path)
            return path
        }
    }
    private enum Location { case unresolved(@Sendable () -> String), found(String) }
    private let location: Mutex<Location>
    /// The condition's lock guards every `var` below but ``store``.
    private let condition = NSCondition()
    /// Calls not yet masked, oldest first.
    private var pending: [QueuedCall] = []
    /// The batch the masker is masking; a waiter may take it over (``stolen``).
    private var inFlight: [QueuedCall] = []
    private var masking = false
    private var stolen = false
    /// Masked batches not yet written, oldest first, with their calls (for counting and freeing).
    private var masked: [(calls: [QueuedCall], records: [CallRecord])] = []
    /// How many calls, and bytes of their bodies, are queued anywhere before the database.
    private var queuedCount = 0
    private var queuedBytes = 0
    /// Calls written, handed back for a recording thread to free: their memory came from its
    /// allocator, and freeing it there keeps the other threads off that allocator's lock.
    private var written: [QueuedCall] = []
    /// The committer uses ``store``; a waiter waits for it.
    private var committing = false
    /// A waiter is writing the queue itself, through ``store``.
    private var helperBusy = false
    private var threadsStarted = false
    /// The masker and the committer wait for work: new work must wake them.
    private var maskerIdle = false
    private var committerIdle = false
    /// Someone waits for the queue to empty: the masker must not linger.
    private var hurried = 0
    private var closing = false
    /// The committer has ended (and closed ``store`` when ``releaseStore`` was set).
    private var committerDone = false
    /// The committer closes the database when it ends (``close(within:)``), else leaves it open.
    private var releaseStore = false
    /// After the database was found damaged, calls are no longer queued.
    private var disabled = false
    private var notices: [String] = []
    private var noticed: Set<String> = []
    private var sizeLimit: Int
    /// The one connection, used by the committer while ``committing`` and by a waiter while
    /// ``helperBusy``, never both: two connections of one process would wait for each other's lock.
    private var store: CallStore?

    /// How many calls, and how many bytes of their bodies, may wait for the database.
    static let maximumQueued = 10_000
    static let maximumQueuedBytes = 64 << 20
    /// The most calls the masker takes at once.
    static let maximumBatch = 128
    /// How long the masker waits for more calls before it takes a batch: at a call every 0.3 ms,
    /// about 128 calls to a transaction.
    static let linger = 0.05
    /// How long a waiter gives the masker to take up the queue (it answers in well under a
    /// millisecond when a core is free) before it writes the queue itself.
    static let patience = 0.02

    /// The default size cap: 100 MB.
    public static let defaultSizeLimit = 100 << 20

    /// How long a write waits for another process's lock before the calls it holds are given up
    /// (and the lock is said once), in milliseconds.
    let busyTimeout: Int32

    /// A log in `path`, made with its directory on the first call; nothing is opened before that.
    public convenience init(path: String, sizeLimit: Int = CallLog.defaultSizeLimit, busyTimeout: Int32 = 5000) {
        self.init(sizeLimit: sizeLimit, busyTimeout: busyTimeout) { path }
    }

    /// A log in the file `find` names when it is first needed.
    public init(sizeLimit: Int = CallLog.defaultSizeLimit, busyTimeout: Int32 = 5000, path find: @escaping @Sendable () -> String) {
        location = Mutex(.unresolved(find))
        self.sizeLimit = sizeLimit
        self.busyTimeout = busyTimeout
    }

    /// `$XDG_STATE_HOME/wsh/calls.sqlite` for a state directory.
    public static func defaultPath(stateDirectory: String) -> String {
        stateDirectory + "/wsh/calls.sqlite"
    }

    /// Queues a call; returns at once unless the queue is full, when it writes the queue itself.
    public func record(_ entry: consuming CallEntry, sizeLimit: Int) {
        let call = QueuedCall(entry)
        var done: [QueuedCall] = []
        condition.lock()
        defer {
            condition.unlock()
            done.removeAll()
        }
        swap(&done, &written)
        guard !disabled, !closing else { return }
        if queuedCount >= Self.maximumQueued || queuedBytes >= Self.maximumQueuedBytes {
            drain(until: .distantFuture, patience: 0)
            guard !disabled else { return }
        }
        self.sizeLimit = sizeLimit
        pending.append(call)
        queuedCount += 1
        queuedBytes += call.heldBytes
        if !threadsStarted {
            threadsStarted = true
            let masker = Thread { [self] in maskLoop() }
            masker.name = "wsh history mask"
            masker.start()
            let committer = Thread { [self] in commitLoop() }
            committer.name = "wsh history write"
            committer.start()
        } else if maskerIdle || pending.count == Self.maximumBatch {
            // A full batch ends the masker's linger.
            condition.broadcast()
        }
    }

    /// Waits until every call queued so far is written (or could not be), for at most `seconds`,
    /// writing them itself when the masker is slow; true when they were.
    @discardableResult
    public func flush(within seconds: Double) -> Bool {
        var done: [QueuedCall] = []
        condition.lock()
        defer {
            swap(&done, &written)
            condition.unlock()
            done.removeAll()
        }
        return drain(until: Date(timeIntervalSinceNow: seconds), patience: Self.patience)
    }

    /// At exit: writes what is queued, for at most `seconds`, then stops recording. Calls still
    /// queued then are said in a notice. The database is left open for the process's end: what
    /// is written is in its write-ahead log, which the next wsh to open it takes up, so exit
    /// waits for no checkpoint and the next start creates no new log (each costs disk syncs).
    public func finish(within seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        stop(until: Date(timeIntervalSinceNow: seconds))
    }

    /// Writes what is queued, for at most `seconds`, stops recording and closes the database,
    /// folding its write-ahead log into the file: for a program that goes on after its calls.
    public func close(within seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        stop(until: deadline)
        releaseStore = true
        condition.broadcast()
        while threadsStarted, !committerDone {
            if !wait(until: deadline) { break }
        }
        if !threadsStarted { store = nil }
    }

    /// Whether the writer thread is inside a transaction now (for tests that need a write under
    /// way). Never with the lock held: it takes it.
    var isCommitting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return committing
    }

    /// Whether a caller waits for the queue to be written: a flush, or a call that found the queue
    /// full (for tests that need such a caller waiting). Never with the lock held: it takes it.
    var hasWaiter: Bool {
        condition.lock()
        defer { condition.unlock() }
        return hurried > 0
    }

    /// Waits on the condition until woken or until `date`; false when `date` has come. Foundation
    /// turns the date into nanoseconds since 1970, which traps for `.distantFuture` (the wait of a
    /// call that finds the queue full): a wait past a minute is made a minute at a time, each
    /// answering true, and every caller checks its condition again. Called with the lock held.
    private func wait(until date: Date) -> Bool {
        let step = Date(timeIntervalSinceNow: 60)
        guard date > step else { return condition.wait(until: date) }
        _ = condition.wait(until: step)
        return true
    }

    /// The masked batches, as one list of records and one of calls, in order; the queue of masked
    /// batches is left empty. Called with the lock held.
    private func takeMasked() -> (records: [CallRecord], calls: [QueuedCall]) {
        var records: [CallRecord] = []
        var calls: [QueuedCall] = []
        for batch in masked {
            records += batch.records
            calls += batch.calls
        }
        masked.removeAll()
        return (records, calls)
    }

    private func stop(until deadline: Date) {
        guard !closing else { return }
        let done = drain(until: deadline, patience: Self.patience)
        closing = true
        if !done {
            let count = queuedCount
            notices.append("\(count == 1 ? "a call was" : "\(count) calls were") not written to the call history \(path) in time")
        }
        condition.broadcast()
    }

    /// Empties the queue by `deadline`: gives the masker `patience` seconds, then writes here the
    /// masked batches, the batch the masker holds (it drops it) and what is pending, oldest first;
    /// only a batch the committer is writing is waited for. Called with the lock held; true when
    /// everything queued is written.
    @discardableResult
    private func drain(until deadline: Date, patience: Double) -> Bool {
        hurried += 1
        defer { hurried -= 1 }
        condition.broadcast()
        let patient = min(deadline, Date(timeIntervalSinceNow: patience))
        while queuedCount > 0 || committing || helperBusy {
            // The committer, at its priority, is quick: it is always waited for.
            if helperBusy || committing || Date() < patient {
                if !wait(until: Date() < patient ? patient : deadline), Date() >= deadline { return false }
                continue
            }
            var (records, calls) = takeMasked()
            var unmasked: [QueuedCall] = []
            if masking {
                swap(&unmasked, &inFlight)
                stolen = true
                masking = false
            }
            unmasked += pending
            pending.removeAll()
            calls += unmasked
            guard !calls.isEmpty else {
                // Nothing left to write, whatever the count says.
                queuedCount = 0
                queuedBytes = 0
                break
            }
            let limit = sizeLimit
            helperBusy = true
            condition.unlock()
            records += unmasked.map { CallRecord($0.entry) }
            // A waiter waits for another process's lock no longer than it may wait in all.
            let lockWait = Int32(max(1, min(Double(busyTimeout), deadline.timeIntervalSinceNow * 1000)))
            var problem = open(busyTimeout: lockWait)
            if problem == nil { problem = insert(records, sizeLimit: limit) }
            store?.setBusyTimeout(busyTimeout)
            // Keeps the log from growing when the committer gets no work at all.
            store?.checkpointIfLarge()
            let count = calls.count
            let bytes = calls.reduce(0) { $0 + $1.heldBytes }
            records.removeAll()
            calls.removeAll()
            condition.lock()
            helperBusy = false
            queuedCount -= count
            queuedBytes -= bytes
            if let problem { handle(problem, lost: count) }
            condition.broadcast()
        }
        return true
    }

    /// Problems met since the last call, each kind said once in the process's life.
    public func takeNotices() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        defer { notices.removeAll() }
        return notices
    }

    /// Says `message` once per `kind`; called with the lock held.
    private func notice(_ kind: String, _ message: String) {
        guard noticed.insert(kind).inserted else { return }
        notices.append(message)
    }

    // MARK: The threads

    /// Masks pending calls in batches, at the lowest priority.
    private func maskLoop() {
        Self.setPriority(nice: 19)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while pending.isEmpty || helperBusy, !closing {
                maskerIdle = pending.isEmpty
                condition.wait()
                maskerIdle = false
            }
            if pending.isEmpty || closing { return }
            // Let more calls come, so that one transaction writes many (not when anyone waits). The
            // whole linger is waited out: the committer's wake-up after each commit used to end it
            // at once, and 2000 calls took 700 transactions of three calls each (strace).
            if hurried == 0, pending.count < Self.maximumBatch {
                let deadline = Date(timeIntervalSinceNow: Self.linger)
                while hurried == 0, pending.count < Self.maximumBatch, !helperBusy, !closing,
                      wait(until: deadline) {}
                if pending.isEmpty || helperBusy || closing { continue }
            }
            let count = min(pending.count, Self.maximumBatch)
            inFlight = Array(pending.prefix(count))
            pending.removeFirst(count)
            masking = true
            let batch = inFlight
            condition.unlock()
            let records = batch.map { CallRecord($0.entry) }
            condition.lock()
            if stolen {
                // A waiter wrote them.
                stolen = false
                continue
            }
            masking = false
            inFlight.removeAll()
            masked.append((batch, records))
            if committerIdle { condition.broadcast() }
        }
    }

    /// Writes masked batches, all that are ready in one transaction, at batch priority.
    private func commitLoop() {
        Self.setPriority(nice: nil)
        condition.lock()
        while true {
            while masked.isEmpty || helperBusy, !closing {
                committerIdle = true
                condition.wait()
                committerIdle = false
            }
            if closing { break }
            var (records, calls) = takeMasked()
            let limit = sizeLimit
            committing = true
            condition.unlock()
            var problem = open(busyTimeout: busyTimeout)
            if problem == nil { problem = insert(records, sizeLimit: limit) }
            records.removeAll()
            store?.checkpointIfLarge()
            condition.lock()
            committing = false
            queuedCount -= calls.count
            queuedBytes -= calls.reduce(0) { $0 + $1.heldBytes }
            if let problem { handle(problem, lost: calls.count) }
            if written.isEmpty { written = calls } else { written += calls }
            condition.broadcast()
        }
        // Ended by close(): closing the last connection folds the write-ahead log into the
        // database file. Ended by finish(): the process is ending, and the log stays for the next.
        while !releaseStore || helperBusy {
            condition.wait()
        }
        store = nil
        committerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// SCHED_BATCH (when it wakes, the thread does not preempt a running one), and `nice` when
    /// given. Nice 19 is the lowest priority a thread can give itself and take back nothing from:
    /// the masker runs on a free core and gives way at once when the shell or a server on the
    /// same machine wakes. Not SCHED_IDLE, nor nice 19 for the committer: a thread starved while
    /// it holds SQLite's write lock (other programs keeping every core busy) would keep a waiter,
    /// and other wsh processes, waiting for seconds.
    private static func setPriority(nice: Int32?) {
        #if os(Linux)
        var parameters = sched_param()
        _ = sched_setscheduler(0, 3 /* SCHED_BATCH */, &parameters)
        // On Linux, who 0 is the calling thread alone.
        if let nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
        #endif
    }

    /// Opens ``store`` when it is nil, else sets its busy timeout; the failure, if any.
    private func open(busyTimeout: Int32) -> CallStoreFailure? {
        do {
            if let store { store.setBusyTimeout(busyTimeout) } else { store = try CallStore(writingTo: path, busyTimeout: busyTimeout) }
            return nil
        } catch {
            return CallStoreFailure.from(error)
        }
    }

    /// Writes one batch in one transaction through ``store``; the failure, if any.
    private func insert(_ records: [CallRecord], sizeLimit: Int) -> CallStoreFailure? {
        do {
            try store?.insert(records, sizeLimit: sizeLimit)
            return nil
        } catch {
            // A connection that failed is opened again for the next batch.
            store = nil
            return CallStoreFailure.from(error)
        }
    }

    /// Forgets the calls not yet written: the database will not take them. Called with the lock held.
    private func dropQueue() {
        let calls = pending + masked.flatMap(\.calls)
        pending.removeAll()
        masked.removeAll()
        queuedCount -= calls.count
        queuedBytes -= calls.reduce(0) { $0 + $1.heldBytes }
        if masking {
            stolen = true
            masking = false
            queuedCount -= inFlight.count
            queuedBytes -= inFlight.reduce(0) { $0 + $1.heldBytes }
            inFlight.removeAll()
        }
    }

    /// Called with the lock held.
    private func handle(_ problem: CallStoreFailure, lost: Int) {
        switch problem.kind {
        case .damaged:
            disabled = true
            dropQueue()
            notice("damaged", "the call history \(path) is damaged (\(problem.detail)); calls are not recorded. "
                   + "Move the file aside and wsh starts a new one")
        case .locked:
            notice("locked", "the call history \(path) is locked by another program; "
                   + "\(lost == 1 ? "a call was" : "\(lost) calls were") not recorded")
        case .newer:
            disabled = true
            dropQueue()
            notice("newer", "the call history \(path) was written by a newer wsh; calls are not recorded")
        case .other:
            notice("other", "cannot write the call history \(path): \(problem.detail); "
                   + "\(lost == 1 ? "a call was" : "\(lost) calls were") not recorded")
        }
    }

    // MARK: Reading

    /// The last `limit` calls, oldest first, or those whose target or URL contains `pattern`
    /// (without regard to case). Calls queued by this process are written first. Empty when
    /// there is no history yet.
    public func recent(_ limit: Int, matching pattern: String? = nil) throws(CallLogError) -> [CallSummary] {
        flush(within: 5)
        guard let store = try reader() else { return [] }
        do {
            return try store.recent(limit, matching: pattern)
        } catch {
            throw failure(CallStoreFailure.from(error))
        }
    }

    /// The call numbered `id`, or nil when the history has none.
    public func call(_ id: Int64) throws(CallLogError) -> StoredCall? {
        flush(within: 5)
        guard let store = try reader() else { return nil }
        do {
            return try store.call(id)
        } catch {
            throw failure(CallStoreFailure.from(error))
        }
    }

    /// A connection for reading, or nil when the file does not exist yet.
    private func reader() throws(CallLogError) -> CallStore? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try CallStore(readingFrom: path, busyTimeout: busyTimeout)
        } catch {
            throw failure(CallStoreFailure.from(error))
        }
    }

    private func failure(_ problem: CallStoreFailure) -> CallLogError {
        switch problem.kind {
        case .damaged:
            CallLogError(description: "cannot read the call history \(path): it is damaged (\(problem.detail))")
        case .locked:
            CallLogError(description: "the call history \(path) is locked by another program; try again")
        case .newer:
            CallLogError(description: "the call history \(path) was written by a newer wsh")
        case .other:
            CallLogError(description: "cannot read the call history \(path): \(problem.detail)")
        }
    }
}

/// Why the call history could not be read, in words for the user.
public struct CallLogError: Error, CustomStringConvertible {
    public var description: String
}
