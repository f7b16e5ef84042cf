import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Failures ``NetworkTransport`` detects itself, and the mapping of every failure to a ``ProviderError``.
enum TransportFailure: Error {
    case bodyTooLarge

    static func providerError(
        for error: any Error, request: Request, targetName: String, bodyLimit: Int
    ) -> ProviderError {
        let tooLarge = ProviderError(
            .bodyTooLarge(request: request.summary, limit: bodyLimit), step: .transport, targetName: targetName)
        switch error {
        case TransportFailure.bodyTooLarge, is NIOTooManyBytesError:
            return tooLarge
        case let failure as ContentDecoding.Failure:
            return ContentDecoding.providerError(failure, limit: bodyLimit, request: request, targetName: targetName)
        case let failure as ResponseBodySinkFailure:
            return .other("cannot write the answer to \(request.summary) to \(failure.destination): \(failure.reason)",
                          step: .transport, targetName: targetName)
        case let closed as ClosedConnection:
            return ProviderError(
                .connectionClosed(request: request.summary, answered: closed.answered),
                step: .transport, targetName: targetName)
        case is CancellationError:
            return .cancelled(request, targetName: targetName)
        case let error as RouteFailure:
            return error.providerError(targetName: targetName)
        case let error as TransportSettingsError:
            return .other(error.message, step: .transport, targetName: targetName)
        case let error as NIOConnectionError:
            return .connectionFailure(
                address: "\(error.host):\(error.port)", reason: connectionReason(error), targetName: targetName)
        case let error as HTTPClientError:
            return providerError(for: error, request: request, targetName: targetName)
        case HTTPParserError.invalidEOFState:
            return ProviderError(.connectionClosed(request: request.summary, answered: true), step: .transport, targetName: targetName)
        case let error as ChannelError where NetworkTransport.isClosedConnection(error):
            return ProviderError(.connectionClosed(request: request.summary, answered: false), step: .transport, targetName: targetName)
        case let error as HTTPParserError:
            return .other("the answer to \(request.summary) is not valid HTTP: \(problem(error))",
                          step: .transport, targetName: targetName)
        case let error as IOError where isConnectErrno(error.errnoCode):
            return .connectionFailure(address: address(of: request), reason: reason(errno: error.errnoCode),
                                      targetName: targetName)
        case let error as IOError:
            return .other("\(request.summary) failed: \(reason(errno: error.errnoCode))", step: .transport, targetName: targetName)
        default:
            if let tls = ErrorWording.tlsProblem(error) {
                return .other("TLS with \(address(of: request)) failed: \(tls)", step: .transport, targetName: targetName)
            }
            return .other("\(request.summary) failed: \(ErrorWording.words(error))", step: .transport, targetName: targetName)
        }
    }

    private static func providerError(
        for error: HTTPClientError, request: Request, targetName: String
    ) -> ProviderError {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return .timeout(request, after: request.timeout, targetName: targetName)
        case .cancelled:
            return .cancelled(request, targetName: targetName)
        case .connectTimeout, .getConnectionFromPoolTimeout:
            return .connectionFailure(address: address(of: request), reason: "connection timed out",
                                      targetName: targetName)
        case .remoteConnectionClosed:
            return ProviderError(.connectionClosed(request: request.summary, answered: false), step: .transport, targetName: targetName)
        case .redirectLimitReached, .redirectCycleDetected:
            return ProviderError(.tooManyRedirects(request: request.summary), step: .transport, targetName: targetName)
        default:
            return .other("\(request.summary) failed: \(ErrorWording.words(error))", step: .transport, targetName: targetName)
        }
    }

    /// What is wrong with an answer that is not HTTP/1.x, in a user's words.
    private static func problem(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidConstant, .invalidVersion:
            "it does not start with an HTTP/1.x status line (garbage, or HTTP/0.9)"
        case .invalidStatus: "its status code is not a number from 100 to 999"
        case .invalidHeaderToken, .invalidCharactersUsed, .strictModeAssertion:
            "a header holds characters that HTTP does not allow"
        case .headerOverflow: "its header is too large"
        case .invalidContentLength, .unexpectedContentLength: "its Content-Length is not valid"
        case .invalidChunkSize: "its chunked body is not valid"
        default: ErrorWording.words(error)
        }
    }

    /// `connection refused`, or what else stopped the connection, in lowercase as in a sentence.
    static func connectionReason(_ error: NIOConnectionError) -> String {
        if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
            return "could not resolve host"
        }
        if let io = error.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first {
            return reason(errno: io.errnoCode)
        }
        return error.connectionErrors.first.map { "\($0.error)" } ?? "no address to connect to"
    }

    static func isConnectErrno(_ code: Int32) -> Bool {
        [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL].contains(code)
    }

    static func reason(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// `host:port` of the request's URL, the port defaulting by scheme.
    private static func address(of request: Request) -> String {
        guard let url = URL(string: request.url), let host = url.host else { return request.url }
        return "\(host):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
    }
}
