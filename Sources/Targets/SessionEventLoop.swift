import NIOCore
import NIOPosix

/// The one event loop a wsh session's HTTP connections live on.
///
/// The shell runs its statements on this same loop (as a Swift executor), so a call, its
/// response and the next statement never change threads: no wake-up of another thread per
/// request, which on loopback costs more than the request itself.
public enum SessionEventLoop {
    public static let shared: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
}
