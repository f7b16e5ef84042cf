import Foundation
import TestSupport

/// What the loopback server's `/echo` route saw, reduced to what a request means: method, path,
/// query, body bytes, and the headers a request sets (not those each client adds on its own:
/// Host, User-Agent, Accept, Content-Length, Connection, Accept-Encoding). A multipart body's
/// boundary, which each client draws at random, is replaced by `BOUNDARY`.
struct EchoedRequest: Equatable, CustomStringConvertible {
    var method: String
    var path: String
    var query: String
    var headers: [String]
    var body: [UInt8]

    static let clientHeaders: Set<String> = ["host", "content-length", "connection", "accept-encoding"]

    /// Whether a client added the header on its own: the names above, curl's `Accept: */*` and
    /// HTTPie's `Accept: application/json, */*;q=0.5`, and their own User-Agent (wsh's too).
    static func isClientHeader(_ name: String, _ value: String) -> Bool {
        let name = name.lowercased()
        return clientHeaders.contains(name) || (name == "accept" && (value == "*/*" || value == "application/json, */*;q=0.5"))
            || (name == "user-agent" && (value.hasPrefix("curl/") || value.hasPrefix("HTTPie/") || value.hasPrefix("wsh/")))
    }

    init(echo text: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let method = object["method"] as? String, let path = object["path"] as? String,
              let query = object["query"] as? String, let pairs = object["headers"] as? [[String]],
              let hex = object["bodyHex"] as? String else {
            throw EchoError(text: text)
        }
        self.method = method
        self.path = path
        self.query = query
        var body = Self.bytes(hex: hex)
        var headers: [String] = []
        for pair in pairs where pair.count == 2 && !Self.isClientHeader(pair[0], pair[1]) {
            var value = pair[1]
            if pair[0].lowercased() == "content-type", let range = value.range(of: "boundary=") {
                let boundary = String(value[range.upperBound...])
                value = value[..<range.upperBound] + "BOUNDARY"
                body = Self.replacing(Array(boundary.utf8), with: Array("BOUNDARY".utf8), in: body)
            }
            headers.append(pair[0].lowercased() + ": " + value)
        }
        self.headers = headers.sorted()
        self.body = body
    }

    /// The same request with a JSON body as its parsed value and a url-encoded form as its
    /// decoded pairs: what a server reads, for requests written in another spelling.
    var meaning: EchoedRequest {
        var copy = self
        let type = headers.first { $0.hasPrefix("content-type: ") } ?? ""
        if type.contains("json"), let value = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
           let canonical = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) {
            copy.body = Array(canonical)
        } else if type.contains("x-www-form-urlencoded") {
            let pairs = String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
                pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                    $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }.joined(separator: "=")
            }
            copy.body = Array(pairs.joined(separator: "\n").utf8)
        }
        copy.query = query.split(separator: "&").map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            .joined(separator: "\n")
        return copy
    }

    var description: String {
        "\(method) \(path)?\(query) \(headers) \(String(decoding: body, as: UTF8.self).debugDescription)"
    }

    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(Self.nibble(high) << 4 | Self.nibble(low)))
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        digit >= UInt8(ascii: "a") ? digit - UInt8(ascii: "a") + 10 : digit - UInt8(ascii: "0")
    }

    private static func replacing(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard !old.isEmpty else { return bytes }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + old.count <= bytes.count, bytes[index..<(index + old.count)].elementsEqual(old) {
                out += new
                index += old.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}

struct EchoError: Error, CustomStringConvertible {
    var text: String
    var description: String { "not an echo: \(text.prefix(300))" }
}

/// Runs `command` with `shell -c` (POSIX sh by default), as a user pastes a command into a shell.
func runShell(_ command: String, shell: String = "/bin/sh", environment: [String: String] = [:]) async throws -> WSHProcess.Result {
    try await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try WSHProcess.runToEnd(process, stdin: "")
    }
}

/// HTTPie's `http`: `$WSH_HTTPIE`, else scripts/ensure-httpie.sh's venv, else on the PATH; nil when not installed.
let httpieProgram: String? = {
    let environment = ProcessInfo.processInfo.environment
    let candidates = [environment["WSH_HTTPIE"], "/tmp/wsh-httpie/bin/http"].compactMap { $0 }
        + (environment["PATH"] ?? "").split(separator: ":").map { $0 + "/http" }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}()
