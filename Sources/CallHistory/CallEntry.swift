import Foundation
import Targets

/// One call as the shell made it, handed to ``CallLog/record(_:)``. Nothing in it is masked yet:
/// the writer's thread masks it with ``redaction`` before any of it reaches the database, so the
/// call itself pays only for handing it over.
public struct CallEntry: Sendable {
    /// When the call finished.
    public var time: Date
    /// The name of the target that was called.
    public var target: String
    /// The call's arguments as given (after expansion): replaying calls the target with them again.
    public var arguments: CallArguments
    /// The request that was sent; for an answered call, the response's (its first hop's after redirects).
    public var request: Request
    /// The answer, when there was one.
    public var response: Response?
    /// Why the call failed, already masked; nil when it succeeded.
    public var failure: String?
    /// How long the call took, for a call with no answer.
    public var elapsed: Duration
    /// The answer came from a sample (`set stub`), not from the network.
    public var stubbed: Bool
    /// The session's secrets and sensitive names; the request's sensitive values are added to it.
    public var redaction: Redaction
    /// The names of the request's headers that the session added rather than the call (its target,
    /// arguments or flags): the cookie jar's Cookie, an auth plugin's header. A replay leaves them
    /// to the jar and the plugins in effect then.
    public var sessionHeaders: [String] = []

    public init(time: Date = Date(), target: String, arguments: CallArguments, request: Request, response: Response?,
                failure: String?, elapsed: Duration, stubbed: Bool, redaction: Redaction) {
        self.time = time
        self.target = target
        self.arguments = arguments
        self.request = request
        self.response = response
        self.failure = failure
        self.elapsed = elapsed
        self.stubbed = stubbed
        self.redaction = redaction
    }

    /// Bytes of this entry held in memory until it is written: what bounds the writer's queue.
    var heldBytes: Int {
        512 + (response?.body.count ?? 0) + (request.body?.count ?? 0)
    }
}

/// A call in ``CallLog``'s queues, by reference: the queues hand calls from thread to thread in
/// arrays, and moving a reference costs one count where copying a call costs one for each of its
/// texts, lists and bodies.
final class QueuedCall: Sendable {
    let entry: CallEntry
    /// ``CallEntry/heldBytes``, reckoned once.
    let heldBytes: Int

    init(_ entry: consuming CallEntry) {
        heldBytes = entry.heldBytes
        self.entry = entry
    }
}

/// A call as the database keeps it: every secret masked, the bodies cut at ``CallRecord/bodyLimit``.
struct CallRecord {
    /// The most of a body that is kept: 1 MB.
    static let bodyLimit = 1 << 20

    var time: Double
    var target: String
    var method: String
    var url: String
    var status: Int?
    var reason: String?
    var elapsedMilliseconds: Double
    var stubbed: Bool
    var failure: String?
    /// Where the call ended up after redirects, when that is not ``url``.
    var finalURL: String?
    /// The arguments as `name=value`, `name:=json` and `Name:value` texts, secret values as `***`.
    var arguments: [String]
    /// The names of the arguments whose values were masked.
    var maskedArguments: [String]
    /// What of the request is not kept as sent: `query appid`, `header Authorization`, `body`, ...
    var withheld: [String]
    /// `Name: value` lines, as UTF-8.
    var requestHeaders: [UInt8]
    var requestBody: Data?
    var responseHeaders: [UInt8]?
    /// The whole answer's size, masked; ``body`` holds at most ``bodyLimit`` of it.
    var bodySize: Int?
    var body: Data?

    /// Bytes the row takes, near enough, for the size cap.
    var size: Int {
        96 + target.utf8.count + method.utf8.count + url.utf8.count + (reason?.utf8.count ?? 0) + (failure?.utf8.count ?? 0)
            + (finalURL?.utf8.count ?? 0) + arguments.reduce(0) { $0 + $1.utf8.count + 3 } + maskedArguments.reduce(0) { $0 + $1.utf8.count + 3 }
            + withheld.reduce(0) { $0 + $1.utf8.count + 3 } + requestHeaders.count + (requestBody?.count ?? 0)
            + (responseHeaders?.count ?? 0) + (body?.count ?? 0)
    }

    /// Masks `entry`: the URL, both sets of headers and both bodies, with the session's secrets and
    /// whatever the request sent under a sensitive name (echoed back in an answer, it is masked there too).
    init(_ entry: CallEntry) {
        let sent = entry.response?.firstRequest ?? entry.request
        // Every hop's credentials: a secret sent on a redirect's hop is masked in the URLs of the others.
        let redaction = entry.response.map { entry.redaction.including(secretsSentFor: $0) } ?? entry.redaction.including(secretsOf: sent)

        time = entry.time.timeIntervalSince1970
        target = entry.target
        method = sent.method.rawValue
        url = redaction.maskedURL(sent.url)
        stubbed = entry.stubbed
        failure = entry.failure.map { redaction.mask($0) }
        var withheld = url == sent.url ? [] : Self.withheldParts(of: sent.url, redaction)

        requestHeaders = Self.text(of: sent.headers, redaction, withheld: &withheld)
        withheld += entry.sessionHeaders.map { StoredCall.sessionHeaderMark + redaction.mask($0) }
        if let body = sent.body {
            let (kept, size) = redaction.maskedForRecording(body, contentType: sent.header("Content-Type"), keeping: Self.bodyLimit)
            if size > Self.bodyLimit {
                withheld.append("body over 1 MB")
            } else if kept != body {
                withheld.append("body")
            }
            requestBody = kept
        }

        var arguments: [String] = []
        var maskedArguments: [String] = []
        let items = entry.arguments.values.map { name, value -> (name: String, separator: String, text: String) in
            switch value {
            case .text(let text): (name, "=", text)
            case .json(let text): (name, ":=", text)
            case .file(let path): (name, "@", path)
            }
        } + entry.arguments.queryItems.map { ($0.name, "==", $0.value) }
        for (name, separator, text) in items {
            let secret = redaction.isSensitiveKey(name) || redaction.mask(text) != text
            if secret { maskedArguments.append(name) }
            arguments.append(redaction.mask(name) + separator + (secret ? Redaction.placeholder : text))
        }
        for header in entry.arguments.headers {
            let masked = redaction.maskedHeader(header)
            if masked.value != header.value { maskedArguments.append(header.name) }
            arguments.append(redaction.mask(header.name) + ":" + masked.value)
        }
        if let source = entry.arguments.body?.source { arguments.append("@" + redaction.mask(source)) }
        self.arguments = arguments
        self.maskedArguments = maskedArguments
        self.withheld = withheld

        if let response = entry.response {
            status = response.status
            reason = redaction.mask(response.reason)
            elapsedMilliseconds = response.elapsed.milliseconds
            finalURL = response.hops.isEmpty ? nil : redaction.maskedURL(response.url)
            var ignored: [String] = []
            responseHeaders = Self.text(of: response.headers, redaction, withheld: &ignored)
            let (kept, size) = redaction.maskedForRecording(response.body, contentType: response.header("Content-Type"),
                                                            keeping: Self.bodyLimit)
            body = kept
            bodySize = size
        } else {
            elapsedMilliseconds = entry.elapsed.milliseconds
        }
    }

    /// `Name: value` lines, masked, as UTF-8: a sensitive name's value is `***`, and secrets are
    /// masked in both. The names of the headers whose values were masked go to `withheld`.
    private static func text(of headers: [Header], _ redaction: Redaction, withheld: inout [String]) -> [UInt8] {
        let masksSecrets = !redaction.secrets.isEmpty
        var bytes: [UInt8] = []
        for header in headers {
            let name = masksSecrets ? redaction.mask(header.name) : header.name
            let sensitive = redaction.isSensitiveName(header.name)
            let value = sensitive ? Redaction.placeholder : masksSecrets ? redaction.mask(header.value) : header.value
            bytes.appendUTF8(of: name + ": " + value + "\n")
            if (sensitive || masksSecrets) && value != header.value { withheld.append("header \(name)") }
        }
        return bytes
    }

    /// The parts of a URL that masking changes: `URL` for the address (a password, a secret in the
    /// path), `query KEY` for each query pair.
    private static func withheldParts(of url: String, _ redaction: Redaction) -> [String] {
        let beforeFragment = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
        let question = beforeFragment.firstIndex(of: "?")
        let address = question.map { String(beforeFragment[..<$0]) } ?? beforeFragment
        var parts: [String] = redaction.maskedURL(address) == address ? [] : ["URL"]
        guard let question else { return parts }
        for pair in beforeFragment[beforeFragment.index(after: question)...].split(separator: "&") {
            let pair = String(pair)
            let key = String(pair.prefix { $0 != "=" })
            let decoded = key.removingPercentEncoding ?? key
            if redaction.isSensitiveKey(decoded) || redaction.mask(pair) != pair {
                parts.append("query \(redaction.mask(decoded))")
            }
        }
        return parts
    }
}
