/// An upload cut short after an early answer: the server answered (a 2xx, on a connection it
/// keeps) before it had read the whole body, then stopped reading it or closed the connection, or
/// the timeout passed, and the rest was not sent. The answer is taken as it came.
public struct UploadCut: Sendable, Equatable {
    /// The bytes of the body written to the connection.
    public var sent: Int
    /// The size of the body.
    public var total: Int
    /// The timeout passed, rather than the server stopping reading.
    public var timedOut: Bool

    /// What the user is told beside the answer to `request`: `the server answered POST URL before
    /// it had read the whole body, then took none of it for 2 s: 4.0 MB of 5.0 MB were sent`.
    public func warning(for request: Request) -> String {
        "the server answered \(request.summary) before it had read the whole body, then "
            + (timedOut ? "the timeout passed" : "took none of it for 2 s")
            + ": \(ByteText.text(sent)) of \(ByteText.text(total)) were sent"
    }
}
