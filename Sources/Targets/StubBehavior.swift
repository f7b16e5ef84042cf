/// Whether the provider answers from a target's sample data instead of the network (Moya's `StubBehavior`).
public enum StubBehavior: Sendable, Equatable {
    /// Send real requests.
    case never
    /// Answer from the sample at once.
    case immediate
    /// Answer from the sample after this long.
    case delayed(Duration)
}
