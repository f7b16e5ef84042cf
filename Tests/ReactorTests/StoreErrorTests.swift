import Testing
import Reactor

/// An error thrown by mutate ends that action only.
@Suite(.timeLimit(.minutes(1)))
struct StoreErrorTests {
    typealias Action = ScriptedReactor.Action

    @Test func stateKeepsMutationsBeforeTheErrorAndTheStoreGoesOn() async throws {
        let store = Store(reactor: ScriptedReactor())
        let errors = Recorder<(String, ScriptError?)>()
        await store.observeErrors { action, error in errors.append((action.name, error as? ScriptError)) }
        let failure = ScriptError(message: "boom")

        await #expect(throws: failure) {
            try await store.send(Action(name: "failing", steps: [.emit("a"), .emit("b"), .fail(failure), .emit("c")]))
        }
        #expect(await store.currentState.log == ["a", "b"])
        #expect(errors.all.map(\.0) == ["failing"])
        #expect(errors.all.map(\.1) == [failure])

        try await store.send(Action(name: "later", steps: [.emit("d")]))
        #expect(await store.currentState.log == ["a", "b", "d"])
        #expect(errors.all.count == 1)
    }

    @Test func aFailingActionLeavesAnActionRunningBesideItAlone() async throws {
        let store = Store(reactor: ScriptedReactor())
        let started = Gate()
        let release = Gate()
        let slow = Task {
            try await store.send(Action(name: "slow", steps: [.emit("s1"), .open(started), .wait(release), .emit("s2")]))
        }
        await started.wait()

        await #expect(throws: ScriptError.self) {
            try await store.send(Action(name: "failing", steps: [.emit("f1"), .fail(ScriptError(message: "no"))]))
        }
        release.open()
        try await slow.value

        #expect(await store.currentState.log == ["s1", "f1", "s2"])
    }

    @Test func removedErrorObserversAreNotCalled() async throws {
        let store = Store(reactor: ScriptedReactor())
        let errors = Recorder<String>()
        let token = await store.observeErrors { action, _ in errors.append(action.name) }
        await store.removeObserver(token)

        await #expect(throws: ScriptError.self) {
            try await store.send(Action(name: "failing", steps: [.fail(ScriptError(message: "x"))]))
        }
        #expect(errors.all.isEmpty)
    }
}
