import Foundation

/// Collects what observers are called with, from whatever thread calls them.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    // Sendable by construction: `elements` is only touched under `lock`.
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) {
        lock.withLock { elements.append(element) }
    }

    var all: [Element] {
        lock.withLock { elements }
    }
}
