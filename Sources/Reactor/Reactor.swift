/// A reactor turns actions into state, as in ReactorKit:
/// `Action -> mutate -> Mutation -> reduce -> State`.
///
/// `mutate(action:)` is where side effects happen (a request, a delay); it yields
/// mutations. `reduce(state:mutation:)` is pure: it folds one mutation into the
/// state. A reactor holds no state of its own; a ``Store`` owns the current state
/// and runs the loop.
///
/// The store calls the hooks of one action in this order:
///
///     transform(action:) -> cancellationKey(for:) -> mutate(action:)
///       -> transform(mutations:) -> for each mutation: reduce -> transform(state:)
///
/// Every hook except `mutate` and `transform(mutations:)` should be quick and
/// synchronous work: the store calls them while no other reduce can run.
/// All hooks have defaults (identity transforms, no cancellation key) in an
/// extension, so a reactor writes only what it needs.
public protocol Reactor: Sendable {
    /// What the user asks for, such as `increase` or `refresh`.
    associatedtype Action: Sendable
    /// One change of state, produced by `mutate` and folded in by `reduce`.
    associatedtype Mutation: Sendable
    /// What the user sees.
    associatedtype State: Sendable

    /// The state a new store starts from (before `transform(state:)`).
    var initialState: State { get }

    /// Performs the side effects of `action` and yields its mutations in order.
    ///
    /// The store reduces the mutations in the order they are yielded. Finishing the
    /// stream ends the action. Throwing ends this action only: mutations yielded
    /// before the error stay reduced, and the store goes on serving later actions.
    /// When the store stops listening (the action was cancelled), the stream is
    /// terminated; a producer task should stop on its `onTermination` (see
    /// `AsyncThrowingStream.emitting(_:)`, which does this).
    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error>

    /// Returns the state after `mutation`. Must be pure: no side effects, the same
    /// answer for the same arguments.
    func reduce(state: State, mutation: Mutation) -> State

    /// Rewrites an action before anything else sees it. Default: the action itself.
    func transform(action: Action) -> Action

    /// Rewrites the mutations of one action before they are reduced: map, filter,
    /// append or prepend mutations. Called once per action, on the stream returned
    /// by `mutate(action:)`. Default: the stream itself.
    func transform(mutations: AsyncThrowingStream<Mutation, any Error>) -> AsyncThrowingStream<Mutation, any Error>

    /// Rewrites each state that `reduce` returns, and the initial state, before the
    /// store keeps and publishes it. The transformed state is the store's
    /// `currentState` and the input of the next reduce. Default: the state itself.
    func transform(state: State) -> State

    /// Actions with equal non-nil keys supersede each other when sent with
    /// `cancelsInFlight: true` (see ``Store/send(_:cancelsInFlight:)``). Asked of the
    /// transformed action. Default: `nil`, the action is never cancelled by another.
    func cancellationKey(for action: Action) -> String?
}
