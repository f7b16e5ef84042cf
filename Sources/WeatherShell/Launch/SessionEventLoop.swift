import NIOCore
import NIOPosix
import Targets

/// The one event loop a wsh session's HTTP connections live on.
///
/// The shell runs its statements on this same loop, as their actor's executor and as their
/// task executor preference, so a call, the provider's and AsyncHTTPClient's async code, the
/// response and the next statement never change threads: on loopback, waking another thread
/// for each request costs more than the request itself.
public enum SessionEventLoop {
    public static let shared: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()

    /// The executor of the shell's actor, and the task executor its tasks prefer.
    public static let executor = EventLoopExecutor(shared)

    /// The session's HTTP transport, its connections on this loop.
    public static let transport = NetworkTransport(eventLoopGroup: shared)
}

/// Runs Swift jobs on a NIO event loop, as one serial executor (an actor's) that is also a task
/// executor (a task's preference).
///
/// Being both is what keeps a call to one job per response: a job runs isolated to the actor
/// *and* on the task executor, so the runtime sees no executor change when code on the actor
/// calls nonisolated code (or resumes from a continuation, which resumes on the task executor)
/// and does not enqueue a hop. As two executors, each response cost two or more extra jobs.
public final class EventLoopExecutor: SerialExecutor, TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Runs `job` on the loop, isolated to this executor and with it as the task executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor())
        }
    }

    /// Every job of this executor runs on the loop's thread, so being on it is being isolated.
    public func checkIsolated() {
        precondition(eventLoop.inEventLoop, "expected to run on the session's event loop")
    }

    /// Whether the current thread is the loop's: the same answer as ``checkIsolated()``, without a trap.
    public func isIsolatingCurrentContext() -> Bool? {
        eventLoop.inEventLoop
    }
}
