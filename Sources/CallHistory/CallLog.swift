import Foundation
import Synchronization

/// The call history: every call a shell makes, its secrets masked, in an SQLite database that
/// several wsh processes write at once (write-ahead log, a busy timeout of 5 s).
///
/// ``record(_:sizeLimit:)`` only queues the call. A thread of this log's own, started by the first
/// call and running at idle priority (it takes only CPU time nothing else wants, so it never
/// delays a call or the server answering it), masks the calls and writes them in batches. Whoever
/// needs the queue empty helps instead of waiting on that thread: ``flush(within:)`` (before
/// `history` reads), ``finish(within:)`` (at exit, for a bounded time) and a call that finds the
/// queue full (10,000 calls or 64 MB of bodies) write what is pending themselves, at their own
/// priority, after the batch the writer holds, so the calls keep their order. A database that is
/// damaged, locked past the timeout or cannot be written is said once (``takeNotices()``), in
/// words for the user, and the shell goes on.
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
    /// The condition's lock guards every `var` below but the two connections.
    private let condition = NSCondition()
    private var pending: [CallEntry] = []
    private var pendingBytes = 0
    /// Calls written by the writer, handed back for a recording thread to free: their memory came
    /// from its allocator, and freeing it there keeps the writer off that allocator's lock.
    private var written: [CallEntry] = []
    /// A batch is out of ``pending`` and not yet written, by the writer or by a helper.
    private var writerBusy = false
    private var helperBusy = false
    private var writerStarted = false
    /// The writer waits for a first call: a new one must wake it.
    private var writerIdle = false
    /// Someone waits for the queue to empty: the writer must not linger.
    private var hurried = 0
    private var closing = false
    /// The writer has ended (and closed its connection when ``releaseStore`` was set).
    private var writerDone = false
    /// The writer closes its connection when it ends (``close(within:)``), else leaves it open.
    private var releaseStore = false
    /// After the database was found damaged, calls are no longer queued.
    private var disabled = false
    private var notices: [String] = []
    private var noticed: Set<String> = []
    private var sizeLimit: Int
    /// The writer's connection, touched by the writer's thread only.
    private var writerStore: CallStore?
    /// A helper's connection, touched only while ``helperBusy`` is set by that helper.
    private var helperStore: CallStore?

    /// How many calls, and how many bytes of their bodies, may wait for the writer.
    static let maximumPending = 10_000
    static let maximumPendingBytes = 64 << 20
    /// The most calls one of the writer's transactions takes: a few milliseconds of work, which is
    /// the longest a waiter waits for a writer that other programs keep from the CPU.
    static let maximumBatch = 128
    /// How long the writer waits for more calls before it writes a batch.
    static let linger = 0.01
    /// How long a waiter gives the writer to take up the queue (it answers in well under a
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

    /// Queues a call for the writer; returns at once unless the queue is full, when it writes the
    /// queue itself.
    public func record(_ entry: CallEntry, sizeLimit: Int) {
        var done: [CallEntry] = []
        condition.lock()
        defer {
            condition.unlock()
            done.removeAll()
        }
        swap(&done, &written)
        guard !disabled, !closing else { return }
        if pending.count >= Self.maximumPending || pendingBytes >= Self.maximumPendingBytes {
            drain(until: .distantFuture, patience: 0)
            guard !disabled else { return }
        }
        self.sizeLimit = sizeLimit
        pending.append(entry)
        pendingBytes += entry.heldBytes
        if !writerStarted {
            writerStarted = true
            let thread = Thread { [self] in writeLoop() }
            thread.name = "wsh call history"
            thread.start()
        } else if writerIdle {
            condition.signal()
        }
    }

    /// Waits until every call queued so far is written (or could not be), for at most `seconds`,
    /// writing them itself when the writer is slow; true when they were.
    @discardableResult
    public func flush(within seconds: Double) -> Bool {
        var done: [CallEntry] = []
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
        helperStore = nil
        releaseStore = true
        condition.broadcast()
        while writerStarted, !writerDone {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// Called with the lock held.
    private func stop(until deadline: Date) {
        guard !closing else { return }
        let done = drain(until: deadline, patience: Self.patience)
        closing = true
        if !done {
            let count = pending.count
            notices.append("\(count == 1 ? "a call was" : "\(count) calls were") not written to the call history \(path) in time")
        }
        condition.broadcast()
    }

    /// Empties the queue by `deadline`: gives the writer `patience` seconds, then writes what is
    /// pending here, each time after the batch the writer holds. Called with the lock held; true
    /// when the queue is empty and nothing is being written.
    @discardableResult
    private func drain(until deadline: Date, patience: Double) -> Bool {
        hurried += 1
        defer { hurried -= 1 }
        condition.broadcast()
        let patient = min(deadline, Date(timeIntervalSinceNow: patience))
        while !pending.isEmpty || writerBusy || helperBusy {
            if Date() < patient || writerBusy || helperBusy {
                if !condition.wait(until: Date() < patient ? patient : deadline), Date() >= deadline { return false }
                continue
            }
            var batch: [CallEntry] = []
            swap(&batch, &pending)
            pendingBytes = 0
            let limit = sizeLimit
            helperBusy = true
            condition.unlock()
            // A waiter waits for another process's lock no longer than it may wait in all.
            let wait = Int32(max(1, min(Double(busyTimeout), deadline.timeIntervalSinceNow * 1000)))
            let problem = write(batch, sizeLimit: limit, into: &helperStore, busyTimeout: wait)
            // Keeps the log from growing when the writer gets no time at all.
            helperStore?.checkpointIfLarge(frames: 1024)
            let count = batch.count
            batch.removeAll()
            condition.lock()
            helperBusy = false
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

    // MARK: The writer's thread

    private func writeLoop() {
        Self.lowerPriority()
        condition.lock()
        while true {
            while pending.isEmpty || helperBusy, !closing {
                writerIdle = pending.isEmpty
                condition.wait()
                writerIdle = false
            }
            if pending.isEmpty || closing { break }
            // Let a few more calls come, so that one transaction writes many (not when anyone waits).
            if hurried == 0, pending.count < Self.maximumBatch {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.linger))
                if pending.isEmpty || helperBusy { continue }
            }
            let count = min(pending.count, Self.maximumBatch)
            let batch = Array(pending.prefix(count))
            pending.removeFirst(count)
            pendingBytes = pending.isEmpty ? 0 : max(0, pendingBytes - batch.reduce(0) { $0 + $1.heldBytes })
            let limit = sizeLimit
            writerBusy = true
            condition.unlock()
            let problem = write(batch, sizeLimit: limit, into: &writerStore, busyTimeout: busyTimeout)
            condition.lock()
            writerBusy = false
            if let problem { handle(problem, lost: batch.count) }
            if written.isEmpty { written = batch } else { written += batch }
            condition.broadcast()
            // Between batches, where nobody waits for it (a helper may write meanwhile), unless
            // the log has grown large.
            let frames = pending.isEmpty || hurried == 0 ? 256 : 4096
            condition.unlock()
            writerStore?.checkpointIfLarge(frames: frames)
            condition.lock()
        }
        // Ended by close(): closing the last connection folds the write-ahead log into the
        // database file. Ended by finish(): the process is ending, and the log stays for the next.
        while !releaseStore {
            condition.wait()
        }
        condition.unlock()
        writerStore = nil
        condition.lock()
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// The writer runs as a batch thread (SCHED_BATCH): its full share of the CPU, but when it
    /// wakes it does not preempt a running thread, so on a machine with a core or two it does not
    /// come between a call and its answer. (At idle priority it would starve whenever other
    /// programs keep the cores busy.)
    private static func lowerPriority() {
        #if os(Linux)
        var parameters = sched_param()
        _ = sched_setscheduler(0, 3 /* SCHED_BATCH */, &parameters)
        #endif
    }

    /// Masks and writes one batch in one transaction through `store` (opened when nil); the failure, if any.
    private func write(_ batch: [CallEntry], sizeLimit: Int, into store: inout CallStore?, busyTimeout: Int32) -> CallStoreFailure? {
        let records = batch.map(CallRecord.init)
        do {
            if store == nil { store = try CallStore(writingTo: path, busyTimeout: busyTimeout) } else { store?.setBusyTimeout(busyTimeout) }
            try store?.insert(records, sizeLimit: sizeLimit)
            return nil
        } catch {
            // A connection that failed is opened again for the next batch.
            store = nil
            return CallStoreFailure.from(error)
        }
    }

    /// Called with the lock held.
    private func handle(_ problem: CallStoreFailure, lost: Int) {
        switch problem.kind {
        case .damaged:
            disabled = true
            pending.removeAll()
            pendingBytes = 0
            notice("damaged", "the call history \(path) is damaged (\(problem.detail)); calls are not recorded. "
                   + "Move the file aside and wsh starts a new one")
        case .locked:
            notice("locked", "the call history \(path) is locked by another program; "
                   + "\(lost == 1 ? "a call was" : "\(lost) calls were") not recorded")
        case .newer:
            disabled = true
            pending.removeAll()
            pendingBytes = 0
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
