import Targets

/// Logs every attempt of every call, with secrets masked (Moya's `NetworkLoggerPlugin`).
///
/// - `summary`: one line per attempt when it ends: `GET https://host/path?q -> 200 OK 143 ms 412 B`.
/// - `verbose`: before each attempt the request line, headers and body (`> ` lines); after it the
///   status, headers and body (`< ` lines). JSON bodies are pretty-printed, then cut at ``bodyLimit``.
/// - `curl`: before each attempt the equivalent curl command; after it `# -> 200 OK 143 ms 412 B`.
///
/// What ``Redaction`` masks never reaches the output: the given secret values, Authorization and
/// Cookie headers, and query, header and body keys named like key, token, secret, password or appid.
/// Each hook hands one block of text to ``output`` in one call, so concurrent calls do not interleave.
public struct LoggerPlugin: Plugin {
    /// How much is logged.
    public enum Mode: String, Sendable, CaseIterable {
        /// One line per attempt.
        case summary
        /// Request and response: status, headers and bodies.
        case verbose
        /// The curl command of each attempt, and a comment with its outcome.
        case curl
    }

    /// The default cut of a body in verbose mode, in characters.
    public static let defaultBodyLimit = 4096

    /// One line per attempt on stderr, nothing masked but the sensitive names.
    public static let summary = LoggerPlugin(mode: .summary)
    /// Headers and bodies on stderr, nothing masked but the sensitive names.
    public static let verbose = LoggerPlugin(mode: .verbose)
    /// curl commands on stderr, nothing masked but the sensitive names.
    public static let curl = LoggerPlugin(mode: .curl)

    /// What is logged.
    public var mode: Mode
    /// How many characters of a body verbose mode shows (after masking and pretty-printing);
    /// `nil` shows bodies whole, `0` leaves them out.
    public var bodyLimit: Int?
    /// What is masked.
    public var redaction: Redaction
    /// Where the text goes; by default ``Console/standardError``.
    public var output: OutputClosure

    /// `logger`.
    public var name: String { "logger" }

    /// A logger in `mode` that masks with `redaction` and writes to `output`.
    public init(
        mode: Mode = .summary, bodyLimit: Int? = defaultBodyLimit, redaction: Redaction = Redaction(),
        output: @escaping OutputClosure = { Console.standardError.write(line: $0) }
    ) {
        self.mode = mode
        self.bodyLimit = bodyLimit
        self.redaction = redaction
        self.output = output
    }

    /// Verbose: the request. Curl: its curl command.
    public func willSend(_ request: Request, target: any TargetType) async {
        switch mode {
        case .summary: break
        case .verbose: output(format(for: request).request(request))
        case .curl:
            // Only what `log` prints can fail (a multipart file not found), and a log needs no file.
            let printer = RequestCommandPrinter(tool: .curl, purpose: .log, redaction: format(for: request).redaction)
            output((try? printer.command(for: request).text) ?? "")
        }
    }

    /// Summary: the one line. Verbose: the response. Curl: a comment with the outcome.
    public func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) async {
        let request: Request? = switch result {
        case .success(let response): response.request
        case .failure(let error): error.request
        }
        // A redirect's Location is the next hop's URL: what it sends as a credential (`appid=`) is
        // masked in this hop's lines too, where its URL may carry it percent-encoded in its query.
        let location: String? = switch result {
        case .success(let response) where (300..<400).contains(response.status): response.header("Location")
        default: nil
        }
        let format = format(for: request, redirectingTo: location)
        switch mode {
        case .summary: output(format.summary(result))
        case .verbose: output(format.response(result))
        case .curl: output("# -> " + format.outcome(result))
        }
    }

    /// The format for one attempt: whatever the request sends under a sensitive name is masked
    /// wherever it appears, so a server that echoes a token back does not put it in the log.
    /// With `location`, what the URL it names sends as credentials too.
    private func format(for request: Request?, redirectingTo location: String? = nil) -> LogFormat {
        var masking = request.map { redaction.including(secretsOf: $0) } ?? redaction
        if let location, let method = request?.method { masking = masking.including(secretsOf: Request(method: method, url: location)) }
        return LogFormat(redaction: masking, bodyLimit: bodyLimit)
    }
}
