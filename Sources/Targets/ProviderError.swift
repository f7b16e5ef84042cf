/// Why a call failed, and at which step. Like AsyncHTTPClient's errors, a public struct over a private
/// code, so new kinds of failure can be added without breaking callers. Its `description` is one line
/// for a user, with URLs masked by ``Redaction``.
public struct ProviderError: Error, Sendable, CustomStringConvertible {
    /// The step of ``Provider/request(_:arguments:)`` that failed.
    public enum Step: String, Sendable, Equatable {
        /// Binding the call's arguments to the target: unknown or missing parameters, no or bad URL.
        case endpoint
        /// Encoding the body: invalid `:=` JSON, an unreadable multipart file.
        case encoding
        /// Sending and receiving over the network.
        case transport
        /// The status was outside the target's validation range.
        case validation
        /// The body could not be decoded (``Response/json()``).
        case decoding
        /// Answering from sample data.
        case stub
    }

    enum Code: Sendable {
        case unknownParameter(String)
        case missingParameter(String)
        case missingHeader(String)
        case repeatedPathParameter(String)
        /// A list or object given for a `comma`, `pipes` or `spaces` style parameter with the separator in a value.
        case separatorInStyledValue(parameter: String, separator: String, text: String)
        case bodyFieldWithRawBody(String)
        case fileOutsideMultipart(parameter: String)
        case missingBaseURL
        case invalidURL(String, reason: String)
        case invalidJSONArgument(parameter: String, text: String, JSONParseError)
        case unreadableFile(parameter: String, path: String, reason: String)
        case connectionFailed(address: String, reason: String)
        case timedOut(request: String, after: Duration?)
        case cancelled(request: String)
        case bodyTooLarge(request: String, limit: Int)
        /// `answered`: the answer's head had come.
        case connectionClosed(request: String, answered: Bool)
        /// More redirects than `limit` (nil when the HTTP client counted them).
        case tooManyRedirects(request: String, limit: Int? = nil)
        case unacceptableStatus(ValidationType)
        case retriesExhausted(attempts: Int, note: String?)
        case invalidJSONBody(JSONParseError)
        case other(String)
    }

    /// Whether the server's answer, or its absence, failed the call (sending, the status, the body's
    /// JSON) rather than the call as written.
    public var comesFromTheAnswer: Bool { step == .transport || step == .validation || step == .decoding }

    /// The name of the target that was called.
    public var targetName: String
    /// The step that failed.
    public var step: Step
    let code: Code
    /// The response, when there was one: always for a validation error.
    public var response: Response?
    /// The target's parameter names, in ``TargetType/parameters`` order, for a did-you-mean suggestion.
    public var parameters: [String]
    /// The request that failed, when the failure came from sending it (set for every transport failure).
    public var request: Request?
    /// The redirect that led to the request that failed (its status, and the URL it led to, masked),
    /// said after the message: `redirected by a 302 to https://host/path`, without the URL when the
    /// message names it already (`GET URL timed out`). Nil when the first request failed.
    var redirect: (status: Int, url: String)?

    init(_ code: Code, step: Step, targetName: String, response: Response? = nil, parameters: [String] = []) {
        self.code = code
        self.step = step
        self.targetName = targetName
        self.response = response
        self.parameters = parameters
    }

    /// The argument name that is not a parameter of the target.
    public var unknownParameter: String? {
        if case .unknownParameter(let name) = code { name } else { nil }
    }

    /// The required parameter that the call did not give.
    public var missingParameter: String? {
        if case .missingParameter(let name) = code { name } else { nil }
    }

    /// The argument the call gave that cannot be sent as given: a path parameter given twice, a
    /// body field beside `@FILE`, a file for a target with no multipart body, `name:=` text that is not JSON.
    public var misplacedArgument: String? {
        switch code {
        case .repeatedPathParameter(let name), .bodyFieldWithRawBody(let name), .fileOutsideMultipart(let name),
             .invalidJSONArgument(parameter: let name, _, _), .separatorInStyledValue(parameter: let name, _, _): name
        default: nil
        }
    }

    /// The `name:=` parameter whose text is not JSON, and why, as `mask` lets it be told.
    public func invalidJSONArgument(masking mask: (String) -> String) -> (parameter: String, reason: String)? {
        if case .invalidJSONArgument(let parameter, let text, let error) = code { (parameter, error.description(in: text, mask: mask)) } else { nil }
    }

    /// The required header (`header X-Request-Id` in a target) that the call did not give.
    public var missingHeader: String? {
        if case .missingHeader(let name) = code { name } else { nil }
    }

    /// Whether the request ran out of time (the target's or session's timeout).
    public var isTimeout: Bool {
        if case .timedOut = code { true } else { false }
    }

    /// Whether no connection to the server could be made (refused, unreachable, unknown host).
    public var isConnectionFailure: Bool {
        if case .connectionFailed = code { true } else { false }
    }

    /// Whether the server closed the connection before the response was complete.
    public var isConnectionClosed: Bool {
        if case .connectionClosed = code { true } else { false }
    }

    /// Whether the target had no base URL and the provider none to fall back on.
    public var isMissingBaseURL: Bool {
        if case .missingBaseURL = code { true } else { false }
    }

    /// Whether the answer's body, decoded, was larger than the limit.
    public var isBodyTooLarge: Bool {
        if case .bodyTooLarge = code { true } else { false }
    }

    /// Whether the call stopped after following as many redirects as it may.
    public var isTooManyRedirects: Bool {
        if case .tooManyRedirects = code { true } else { false }
    }

    /// Whether the call was cancelled, as by Ctrl-C cancelling its Swift task.
    public var isCancelled: Bool {
        if case .cancelled = code { true } else { false }
    }

    /// One line saying what went wrong.
    public var description: String {
        text(masking: { $0 })
    }

    /// ``description`` with `redaction` applied, to the server's text before it is cut for the
    /// body preview too, so that a cut through a secret cannot leave its start showing.
    public func description(masking redaction: Redaction) -> String {
        redaction.mask(text(masking: redaction.mask))
    }

    private func text(masking mask: @escaping (String) -> String) -> String {
        let message = message(masking: mask)
        guard let redirect else { return message }
        let destination = message.contains(redirect.url) ? "" : " to \(redirect.url)"
        return message + " (redirected by a \(redirect.status)\(destination))"
    }

    private func message(masking mask: @escaping (String) -> String) -> String {
        switch code {
        case .unknownParameter(let name):
            "unknown parameter '\(name)' for target '\(targetName)'"
        case .missingParameter(let name):
            "missing required parameter '\(name)' for target '\(targetName)'"
        case .missingHeader(let name):
            "missing required header '\(name)' for target '\(targetName)'"
        case .repeatedPathParameter(let name):
            "parameter '\(name)' of target '\(targetName)' fills a path segment and takes one value, not several"
        case .separatorInStyledValue(let parameter, let separator, let text):
            "a value of parameter '\(parameter)' of target '\(targetName)' holds '\(separator)', which its style writes between values: "
                + "the server would read '\(text)' as more values than were given; send it in style json or deepObject, or as the key repeated"
        case .bodyFieldWithRawBody(let name):
            "'\(name)' is a body field of target '\(targetName)', and @FILE gives the whole body instead"
        case .fileOutsideMultipart(let name):
            "'\(name)@FILE' sends a file part, and target '\(targetName)' has no multipart body to carry it"
        case .missingBaseURL:
            "target '\(targetName)' has no base URL"
        case .invalidURL(let url, let reason):
            // An ad-hoc request's target, `(get)`, is no name the user gave.
            "invalid URL '\(Redaction().maskedURL(url))'" + (targetName.hasPrefix("(") ? "" : " for target '\(targetName)'") + ": \(reason)"
        case .invalidJSONArgument(let parameter, let text, let error):
            "parameter '\(parameter)' of target '\(targetName)' is not valid JSON: \(error.description(in: text, mask: mask))"
        case .unreadableFile(let parameter, let path, let reason):
            "cannot read file '\(path)' for parameter '\(parameter)' of target '\(targetName)': \(reason)"
        case .connectionFailed(let address, let reason):
            "could not connect to \(address): \(reason)"
        case .timedOut(let request, let after):
            "\(request) timed out" + (after.map { " after \($0.shortDescription)" } ?? "")
        case .cancelled(let request):
            "\(request) was cancelled"
        case .bodyTooLarge(let request, let limit):
            "response to \(request) is larger than the limit of \(ByteText.text(limit))"
        case .connectionClosed(let request, answered: true):
            "the server closed the connection before the response to \(request) was complete"
        case .connectionClosed(let request, answered: false):
            "the server closed the connection without answering \(request)"
        case .tooManyRedirects(let request, let limit):
            "too many redirects for \(request)" + (limit.map { " (more than \($0) \($0 == 1 ? "is" : "are") followed)" } ?? "")
        case .unacceptableStatus(let validation):
            ValidationFailureMessage(targetName: targetName, condition: "expected \(validation)", response: response, mask: mask).text
        case .retriesExhausted(let attempts, let note):
            ValidationFailureMessage(
                targetName: targetName,
                condition: "after \(attempts) attempt\(attempts == 1 ? "" : "s")" + (note.map { "; \($0)" } ?? ""),
                response: response,
                mask: mask
            ).text
        case .invalidJSONBody(let error):
            "the response of target '\(targetName)' is not valid JSON: \(error)"
        case .other(let message):
            message
        }
    }
}
