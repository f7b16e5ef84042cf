import Synchronization

/// How many bytes of an answer's body have arrived so far, counted by the transport as they come
/// in, for a display of progress (the loading spinner's `⠋ users 1.2s 48 KB`). Copies of a request
/// share one counter; a plugin that shows it starts it again at each attempt with ``reset()``.
public final class ReceivedBytes: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// The body bytes received since the last ``reset()``, as they came over the wire (before any
    /// `Content-Encoding` is decoded).
    public var value: Int { count.load(ordering: .relaxed) }

    /// Counts `bytes` more.
    public func add(_ bytes: Int) {
        count.wrappingAdd(bytes, ordering: .relaxed)
    }

    /// Counts from zero again.
    public func reset() {
        count.store(0, ordering: .relaxed)
    }
}

/// A request's counter, compared by identity so that ``Request`` stays `Equatable`.
struct ReceivedBytesReference: Sendable, Equatable {
    let counter: ReceivedBytes

    static func == (left: Self, right: Self) -> Bool { left.counter === right.counter }
}
