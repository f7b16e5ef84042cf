/// `wsh test --timeout DURATION`: a file that runs longer is stopped as Ctrl-C stops it (it says
/// where, and the call in flight) and reported errored, "timed out after DURATION"; the other files go on.
enum TestTimeLimit {
    /// How long a worker interrupted at its limit has to write what it did before it is killed.
    static let grace: Duration = .seconds(5)

    /// Interrupts `worker` once `limit` has passed, and kills it if it is still running `grace`
    /// later. Cancel it when the worker ends; its value is whether the limit passed.
    static func watch(_ worker: WorkerProcess, limit: Duration) -> Task<Bool, Never> {
        Task {
            do {
                try await Task.sleep(for: limit)
            } catch {
                return false
            }
            worker.interrupt()
            do {
                try await Task.sleep(for: grace)
                worker.terminate()
            } catch {}
            return true
        }
    }

    /// `result` of a file stopped at its limit, `text` as the user gave it: errored, its
    /// interruption (where it stopped, the call in flight) made a `timeout` error. A worker killed
    /// after ``grace`` left no result: then the error has only the file's path.
    static func timedOut(_ result: TestFileResult, after text: String) -> TestFileResult {
        var result = result
        let message = "timed out after \(text)"
        let stopped = result.interruption
        let place = (stopped?.line.map { "\(stopped?.file ?? result.path):\($0):\(stopped?.column ?? 1): " } ?? "\(result.path): ") + "error: "
        let notes = stopped?.notes ?? []
        let error = TestErrorRecord(kind: "timeout", message: message, file: stopped?.file ?? result.path, line: stopped?.line,
                                    column: stopped?.column, notes: notes,
                                    rendered: place + message + "\n" + notes.map { "note: \($0)\n" }.joined())
        let replacesFirst = result.firstFailure == nil || result.firstFailure?.message == stopped?.message || result.errors.isEmpty
        result.errors = result.errors.filter { $0.kind != "interrupted" } + [error]
        for index in result.calls.indices where result.calls[index].failure?.hasPrefix("interrupted") == true {
            result.calls[index].failure = message
        }
        if replacesFirst {
            result.firstFailure = TestFailure(location: result.place(of: error), message: message, notes: notes)
        }
        result.outcome = .errored
        return result
    }
}
