/// The actions a ``Store`` is running, so that an action sent with
/// `cancelsInFlight: true` can cancel the ones with its cancellation key.
///
/// A plain value kept inside the store actor. An action is begun, its consumer
/// task attached, and ended when its `send` returns. Cancelling marks the action
/// (so the store reduces none of its mutations from then on, whatever its
/// mutation stream does) and cancels its consumer task (so a pending wait for the
/// next mutation ends, and the stream tells its producer to stop).
struct InFlightActions {
    struct ID: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct Entry {
        let key: String?
        var consumer: Task<Void, any Error>?
        var isCancelled = false
    }

    private var nextID = 0
    private var entries: [ID: Entry] = [:]

    mutating func begin(key: String?) -> ID {
        defer { nextID += 1 }
        let id = ID(value: nextID)
        entries[id] = Entry(key: key)
        return id
    }

    mutating func attach(_ consumer: Task<Void, any Error>, to id: ID) {
        entries[id]?.consumer = consumer
        if entries[id]?.isCancelled == true {
            consumer.cancel()
        }
    }

    mutating func end(_ id: ID) {
        entries[id] = nil
    }

    func isCancelled(_ id: ID) -> Bool {
        entries[id]?.isCancelled ?? false
    }

    /// Cancels every running action whose key is `key`.
    mutating func cancel(key: String) {
        for (id, entry) in entries where entry.key == key && !entry.isCancelled {
            entries[id]?.isCancelled = true
            entry.consumer?.cancel()
        }
    }
}
