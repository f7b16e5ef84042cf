/// A request that met a connection the server closed before its answer was complete, with what
/// the user needs to know of it: whether any answer had begun. Made by ``NetworkTransport``; said by
/// ``TransportFailure`` as ``ProviderError/isConnectionClosed``.
struct ClosedConnection: Error {
    /// Whether the answer's head came before the close.
    var answered: Bool
}
