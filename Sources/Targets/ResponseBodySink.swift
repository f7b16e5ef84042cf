import Foundation

/// Where an answer's body goes as it arrives, a piece at a time, instead of waiting in memory for
/// the whole of it: a file for `call ... > FILE`, the terminal or a pipe for a streamed answer.
///
/// The transport calls a sink on the request's event loop, one call at a time, and reads the next
/// piece only after `write` returns, so a slow sink holds the sender back rather than filling memory.
public protocol ResponseBodySink: AnyObject, Sendable {
    /// Whether the body of the answer with this status and these headers goes to the sink; `false`
    /// keeps it in memory, within the body limit, as without a sink. Throws a
    /// ``ResponseBodySinkFailure`` when the sink cannot take it (a file that cannot be created).
    func begin(status: Int, headers: [Header]) throws -> Bool
    /// Takes the next piece of the body, decoded from its Content-Encoding when the request asks for that.
    func write(_ piece: Data) throws
    /// The body ended (`completed`), or the exchange failed or was cut short: flush and release what
    /// ``begin(status:headers:)`` took. Throws a ``ResponseBodySinkFailure`` when a whole body could not be kept.
    func end(completed: Bool) throws
    /// Whether the body is also kept in memory for queries, as long as it stays within the body limit.
    var keepsCopy: Bool { get }
    /// Whether bytes of a body went where they cannot be taken back (a terminal, a pipe): sent
    /// again, the request would show a second body after the first one's part.
    var hasShownBytes: Bool { get }
}

extension ResponseBodySink {
    /// A sink that keeps what it takes until the body is whole (a file written under another name
    /// first) has shown nothing.
    public var hasShownBytes: Bool { false }
}

/// Why a sink could not take a body: where it was going, and the system's reason.
public struct ResponseBodySinkFailure: Error, Sendable {
    /// Where the body was going, for the message: `'out.json'`, `standard output`.
    public var destination: String
    public var reason: String

    public init(destination: String, reason: String) {
        self.destination = destination
        self.reason = reason
    }
}

/// A request's sink, compared by identity so that ``Request`` stays `Equatable`.
struct ResponseBodySinkReference: Sendable, Equatable {
    let sink: any ResponseBodySink

    static func == (left: Self, right: Self) -> Bool { left.sink === right.sink }
}
