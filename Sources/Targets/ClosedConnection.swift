/// A request that met a connection the server closed before its answer was complete, with what
/// the user needs to know of it: whether any answer had begun, and whether the request went out
/// on a kept-alive connection (and was not sent again). Made by ``NetworkTransport``; said by
/// ``TransportFailure`` as ``ProviderError/isConnectionClosed``.
struct ClosedConnection: Error {
    /// Whether the answer's head came before the close.
    var answered: Bool
    /// Whether the request went out on a connection kept alive from an earlier answer, and was not
    /// sent again because the server may have acted on it.
    var keptAliveNotResent: Bool
}
