import NIOCore
import NIOPosix

/// The one event loop a wsh session's HTTP connections live on.
///
/// The shell runs its statements on this same loop, as their actor's executor and as their
/// task executor preference, so a call, the provider's and AsyncHTTPClient's async code, the
/// response and the next statement never change threads: on loopback, waking another thread
/// for each request costs more than the request itself.
public enum SessionEventLoop {
    public static let shared: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()

    /// Runs nonisolated async code of tasks that prefer it on ``shared``.
    public static let taskExecutor = EventLoopTaskExecutor(shared)
}

/// A Swift task executor that runs jobs on a NIO event loop.
public final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
