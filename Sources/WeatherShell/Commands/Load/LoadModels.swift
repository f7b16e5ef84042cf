import Foundation
import Load

/// How `wsh load`'s users run: the closed model (N users, each calling again when answered) and
/// the open model (R arrivals a second whatever the answers). With `--processes`, each process
/// runs its slot's part of the same plan: every N-th user, or every N-th arrival, at the time
/// the whole plan gives it, so that the processes together ramp and arrive as one would.
@ShellActor
enum LoadModels {
    /// The users of this process, in the open or the closed model.
    static func run(_ options: LoadOptions, _ state: LoadState, first: VirtualUser, setup: [Program], scenario: Program, parent: Run) async {
        if let rate = options.rate {
            await openModel(rate: rate, options: options, state: state, first: first, setup: setup, scenario: scenario, parent: parent)
        } else {
            await closedModel(options: options, state: state, first: first, setup: setup, scenario: scenario, parent: parent)
        }
    }

    /// This slot's users, each iterating until the end; with a ramp, user i of the run's N starts
    /// at i/N of it. At the end, what is still in flight is stopped, not waited for: each user counts
    /// the iteration the end cut short (``VirtualUser/iterate(setup:scenario:due:)``).
    private static func closedModel(options: LoadOptions, state: LoadState, first: VirtualUser, setup: [Program], scenario: Program, parent: Run) async {
        let deadline = state.ends
        let users = Array(stride(from: state.slot.index - 1, to: options.users, by: state.slot.count))
        await withDiscardingTaskGroup { group in
            for index in users {
                let delay = options.ramp * Double(index) / Double(options.users)
                let user = index == users.first ? first : nil
                group.addTask {
                    if delay > .zero { try? await Task.sleep(until: state.started + delay, clock: .continuous) }
                    await iterateUntil(deadline, user: user, state: state, setup: setup, scenario: scenario, parent: parent)
                }
            }
            try? await Task.sleep(until: deadline, clock: .continuous)
            group.cancelAll()
        }
    }

    /// This slot's arrivals of the run's `rate` a second (rising linearly over the ramp), each an
    /// iteration by a free user (a new one when none is free), at most the slot's share of
    /// `connections` at once: an arrival past that is dropped and counted, never delayed, so a
    /// slow server cannot slow the arrivals. The first call of an arrival counts its latency from
    /// when the arrival was due, so that a wait before it was sent is not hidden.
    private static func openModel(rate: Double, options: LoadOptions, state: LoadState, first: VirtualUser, setup: [Program],
                                  scenario: Program, parent: Run) async {
        let deadline = state.ends
        let ramp = state.seconds(options.ramp)
        let connections = state.slot.share(of: options.connections)
        let pool = UserPool(first)
        await withDiscardingTaskGroup { group in
            var arrival = state.slot.index - 1
            // Arrival k's time: k/R after the ramp; during it the rate is R·t/ramp, so the k-th comes at sqrt(2·ramp·k/R).
            func dueTime(of arrival: Int) -> ContinuousClock.Instant {
                let k = Double(arrival)
                let offset = ramp > 0 && k < rate * ramp / 2 ? (2 * ramp * k / rate).squareRoot() : k / rate + ramp / 2
                return state.started + .nanoseconds(Int64(offset * 1_000_000_000))
            }
            while !Task.isCancelled {
                let due = dueTime(of: arrival)
                guard due < deadline else { break }
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
                // A loop that woke late, past the end, starts nothing more: no iteration after the end.
                guard !Task.isCancelled, ContinuousClock.now < deadline else { break }
                arrival += state.slot.count
                guard pool.busy < connections else {
                    // Every connection busy, behind a rate past what the process can start: this
                    // arrival and all the others due by now are dropped at once, and the iterations
                    // running go on before the next, rather than the loop taking every arrival of
                    // the run while none of them runs.
                    let now = ContinuousClock.now
                    var dropped = 1
                    while case let next = dueTime(of: arrival), next <= now, next < deadline {
                        arrival += state.slot.count
                        dropped += 1
                    }
                    state.stats.recordDropped(dropped)
                    try? await Task.sleep(for: .milliseconds(1))
                    continue
                }
                state.stats.recordArrival()
                let user = pool.take() ?? state.user(from: parent)
                group.addTask {
                    await iterateOnce(user, pool: pool, setup: setup, scenario: scenario, due: due)
                }
            }
            if !Task.isCancelled { try? await Task.sleep(until: deadline, clock: .continuous) }
            group.cancelAll()
        }
    }

    /// An open-model arrival: one iteration, then the user is free again.
    private static func iterateOnce(_ user: VirtualUser, pool: UserPool, setup: [Program], scenario: Program, due: ContinuousClock.Instant) async {
        await user.iterate(setup: setup, scenario: scenario, due: due)
        pool.give(back: user)
    }

    /// A closed-model user's loop: `user`, or a new one, iterates until `deadline`.
    private static func iterateUntil(_ deadline: ContinuousClock.Instant, user: VirtualUser?, state: LoadState, setup: [Program],
                                     scenario: Program, parent: Run) async {
        let user = user ?? state.user(from: parent)
        while ContinuousClock.now < deadline, !Task.isCancelled {
            await user.iterate(setup: setup, scenario: scenario)
        }
    }
}
