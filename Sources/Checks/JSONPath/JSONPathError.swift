/// Why a JSONPath query was refused or could not be evaluated: `expected ']' at 14`.
public struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in the query's own terms.
    public var message: String
    /// Where parsing failed, as an offset in Unicode scalars from the start of the query
    /// (counting from 0; for ASCII queries, the character offset); nil for evaluation errors.
    public var offset: Int?
    /// True when the evaluation was stopped by its caller (Ctrl-C), not refused.
    public var isInterrupted = false

    /// Makes an error, with the offset in the query when it is a parse error.
    public init(message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    /// The evaluation was stopped by its caller.
    static var interrupted: JSONPathError {
        var error = JSONPathError(message: "the evaluation was interrupted")
        error.isInterrupted = true
        return error
    }

    /// `message at offset`, or just the message when there is no offset.
    public var description: String {
        offset.map { "\(message) at \($0)" } ?? message
    }
}
