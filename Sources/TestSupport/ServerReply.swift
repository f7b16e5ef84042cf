/// A request as the test server received it.
struct ReceivedRequest {
    var method: String
    var path: String
    /// The raw query string after `?`, exactly as received; empty when there is none.
    var query: String
    var headers: [(String, String)]
    var body: [UInt8]

    /// The value of query parameter `name` (no percent-decoding: the built-in routes take numbers and words).
    func queryValue(_ name: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    func intQuery(_ name: String) -> Int? {
        queryValue(name).flatMap { Int($0) }
    }
}

/// How the test server answers one request.
indirect enum ServerReply {
    /// A whole response with Content-Length.
    case respond(status: Int, headers: [(String, String)], body: [UInt8])
    /// Another reply, after a pause.
    case after(milliseconds: Int, ServerReply)
    /// No answer at all; the connection stays open.
    case never
    /// A head promising 1000 bytes, 10 of them, then the connection closes.
    case closeMidBody
    /// A head promising 1000 bytes, 10 of them, then nothing; the connection stays open.
    case stallMidBody
    /// A 200 JSON body of this many bytes, written in chunks as the client reads.
    case stream(byteCount: Int)
    /// A 200 body sent chunked: `first` at once, then `rest` and the end only when `gate` opens;
    /// with `whole`, nothing at all (not even the head) until then.
    case held(contentType: String, first: String, rest: String, gate: ReleaseGate, whole: Bool)

    /// A JSON response.
    static func json(_ status: Int, _ text: String, headers: [(String, String)] = []) -> ServerReply {
        .respond(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }
}

/// JSON text for the server's bodies, so TestSupport needs nothing from the module it tests.
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
