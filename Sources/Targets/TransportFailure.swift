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
        case is CancellationError:
            return .cancelled(request, targetName: targetName)
        case let error as NIOConnectionError:
            return .connectionFailure(
                address: "\(error.host):\(error.port)", reason: connectionReason(error), targetName: targetName)
        case let error as HTTPClientError:
            return providerError(for: error, request: request, targetName: targetName)
        case HTTPParserError.invalidEOFState:
            return ProviderError(.connectionClosed(request: request.summary), step: .transport, targetName: targetName)
        case let error as HTTPParserError:
            return .other("the answer to \(request.summary) is not valid HTTP: \(ErrorWording.words(error))",
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
            return ProviderError(.connectionClosed(request: request.summary), step: .transport, targetName: targetName)
        case .redirectLimitReached, .redirectCycleDetected:
            return ProviderError(.tooManyRedirects(request: request.summary), step: .transport, targetName: targetName)
        default:
            return .other("\(request.summary) failed: \(ErrorWording.words(error))", step: .transport, targetName: targetName)
        }
    }

    /// `connection refused`, or what else stopped the connection, in lowercase as in a sentence.
    private static func connectionReason(_ error: NIOConnectionError) -> String {
        if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
            return "could not resolve host"
        }
        if let io = error.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first {
            return reason(errno: io.errnoCode)
        }
        return error.connectionErrors.first.map { "\($0.error)" } ?? "no address to connect to"
    }

    private static func isConnectErrno(_ code: Int32) -> Bool {
        [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL].contains(code)
    }

    private static func reason(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// `host:port` of the request's URL, the port defaulting by scheme.
    private static func address(of request: Request) -> String {
        guard let url = URL(string: request.url), let host = url.host else { return request.url }
        return "\(host):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
    }
}
