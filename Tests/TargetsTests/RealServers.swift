import Foundation
import Targets
import TestSupport
import Testing

/// GET `url` through a provider over `transport`, which is shut down afterwards.
func get(_ url: String, through transport: NetworkTransport) async throws(ProviderError) -> Response {
    let result: Result<Response, ProviderError>
    do {
        result = .success(try await Provider<Target>(transport: transport).request(Target(name: "real", baseURL: url)))
    } catch {
        result = .failure(error)
    }
    try? await transport.shutdown()
    return try result.get()
}

/// The error of GET `url` over `transport`; records an issue and returns nil when it succeeds.
func failure(of url: String, through transport: NetworkTransport) async -> ProviderError? {
    do {
        let response = try await get(url, through: transport)
        Issue.record("expected an error, got \(response.status) \(response.text)")
        return nil
    } catch {
        return error
    }
}

/// Runs curl with `arguments`, with no environment (no proxy variable applies), and returns its
/// standard output; throws when it fails.
func curl(_ arguments: [String]) async throws -> String {
    let (status, output) = try await runCurl(arguments, environment: [:])
    guard status == 0 else { throw CurlFailed(status: status) }
    return String(decoding: output, as: UTF8.self)
}

struct CurlFailed: Error { var status: Int32 }

extension NginxServer {
    /// The `number`th access log line (from 1), once nginx has written it, without its `encoding=`
    /// field, which depends on what the client accepts; nil when it is not there after 60 s.
    func requestSeen(_ number: Int) async throws -> String? {
        try await accessLogLine(number).map { $0.components(separatedBy: " encoding=")[0] }
    }
}

/// Words of a library or a build that must not reach a person.
let libraryWords = ["NIOSSL", "BoringSSL", "HTTPClientError", "NIOConnectionError", "/.build/", ".cc:", "Error."]
