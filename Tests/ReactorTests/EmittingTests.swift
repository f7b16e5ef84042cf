import Testing
import Reactor

/// `AsyncThrowingStream.emitting`, the helper for mutate bodies.
@Suite(.timeLimit(.minutes(1)))
struct EmittingTests {
    @Test func yieldsInOrderThenFinishes() async throws {
        let stream = AsyncThrowingStream<Int, any Error>.emitting { emit in
            for value in 1...5 {
                emit.yield(value)
                await Task.yield()
            }
        }
        var values: [Int] = []
        for try await value in stream {
            values.append(value)
        }
        #expect(values == [1, 2, 3, 4, 5])
    }

    @Test func failsWithTheErrorTheBodyThrows() async throws {
        let stream = AsyncThrowingStream<Int, any Error>.emitting { emit in
            emit.yield(1)
            throw ScriptError(message: "body")
        }
        var values: [Int] = []
        await #expect(throws: ScriptError(message: "body")) {
            for try await value in stream {
                values.append(value)
            }
        }
        #expect(values == [1])
    }

    @Test func cancelsTheBodyWhenTheConsumerStops() async throws {
        let bodyEnded = Gate()
        let outcome = Recorder<String>()
        let consumer = Task {
            let stream = AsyncThrowingStream<Int, any Error>.emitting { emit in
                emit.yield(1)
                do {
                    try await Task.sleep(for: .seconds(20))
                    outcome.append("slept")
                } catch {
                    outcome.append("cancelled")
                }
                bodyEnded.open()
            }
            for try await _ in stream {
                break
            }
        }
        try await consumer.value
        await bodyEnded.wait()
        #expect(outcome.all == ["cancelled"])
    }
}
