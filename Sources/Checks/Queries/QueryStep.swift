/// A step of a query's path on a JSON value (LANGUAGE.md, "Queries on the last response");
/// `Condition` is what a `[? EXPR]` step holds, decided by whoever walks the path.
public enum QueryStep<Condition: Sendable & Equatable>: Sendable, Equatable {
    case key(String)
    case index(Int)
    /// `[*]`: the rest of the path over every element of a list (or member of an object).
    case all
    /// `[a:b]`: the elements from a up to b (negative counts from the end), the rest of the path over each.
    case slice(Int?, Int?)
    /// `..name`: every value of `name` at any depth, the rest of the path over each.
    case descendants(String)
    /// `[? EXPR]`: the elements for which EXPR (its queries relative to the element) holds, the rest of the path over each.
    case filter(Condition)
}
