import Synchronization

/// Collects what observers are called with, from whatever thread calls them.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var all: [Element] {
        elements.withLock { $0 }
    }
}
