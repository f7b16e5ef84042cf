import CallHistory
import Checks
import Foundation
import Targets

/// Calls as a HAR 1.2 document (the format browsers' developer tools export): each call an entry
/// with its request and answer as given (masked by whoever made the entries), its start time, and
/// its time as wsh measured it (all of it as `wait`: wsh does not measure the parts). A call that
/// got no answer has status 0 and its failure in `_error`, as Chromium writes it. The history's
/// calls (`history export har`) and a test run's (`wsh test --report-har`) are written by it.
enum HARDocument {
    /// One call, masked.
    struct Entry {
        var started: Date
        var milliseconds: Double
        var method: String
        var url: String
        var requestHeaders: [Header]
        var requestBody: Data?
        /// nil when no answer came.
        var status: Int?
        var reason: String?
        var responseHeaders: [Header]
        /// The whole answer's size, and as much of its body as was kept.
        var bodySize: Int?
        var body: Data?
        var failure: String?
        /// What made the call: `wsh target NAME`, a test file's path and line.
        var comment: String
        /// Whether `body` is only the first part of the answer's (a test report keeps 64 KB): said
        /// in the content's comment, which `import har` reads.
        var bodyCut = false
    }

    /// How the comment of a response's content begins when its text is cut.
    static let cutComment = "cut: "

    static func text(_ calls: [Entry], creatorVersion: String) -> String {
        let entries = calls.map(entry)
        let log: JSONValue = .object([
            member("version", .string("1.2")),
            member("creator", .object([member("name", .string("wsh")), member("version", .string(creatorVersion))])),
            member("pages", .array([])),
            member("entries", .array(entries)),
        ])
        return JSONValue.object([member("log", log)]).prettyText + "\n"
    }

    private static func entry(_ call: Entry) -> JSONValue {
        let milliseconds = number(call.milliseconds)
        var members = [
            member("startedDateTime", .string(DateText.iso(call.started, fractionDigits: 3))),
            member("time", milliseconds),
            member("request", request(call)),
            member("response", response(call)),
            member("cache", .object([])),
            member("timings", .object([member("send", .number("0")), member("wait", milliseconds), member("receive", .number("0"))])),
        ]
        if let failure = call.failure { members.append(member("_error", .string(failure))) }
        members.append(member("comment", .string(call.comment)))
        return .object(members)
    }

    private static func request(_ call: Entry) -> JSONValue {
        var members = [
            member("method", .string(call.method)),
            member("url", .string(call.url)),
            member("httpVersion", .string("HTTP/1.1")),
            member("cookies", .array([])),
            member("headers", headers(call.requestHeaders)),
            member("queryString", .array(queryItems(call.url))),
            member("headersSize", .number("-1")),
            member("bodySize", .number(String(call.requestBody?.count ?? 0))),
        ]
        if let body = call.requestBody, !body.isEmpty {
            let type = call.requestHeaders.last { $0.name.lowercased() == "content-type" }?.value ?? "application/octet-stream"
            // Marked as a response's content is when not text (postData has no such field of its own).
            members.append(member("postData", .object([member("mimeType", .string(type))] + textMembers(body))))
        }
        return .object(members)
    }

    /// A body as HAR writes it: `text`, or when it is not UTF-8, its base64 with `"encoding": "base64"`.
    private static func textMembers(_ body: Data) -> [JSONMember] {
        guard let text = String(data: body, encoding: .utf8) else {
            return [member("text", .string(body.base64EncodedString())), member("encoding", .string("base64"))]
        }
        return [member("text", .string(text))]
    }

    private static func response(_ call: Entry) -> JSONValue {
        let headerList = call.responseHeaders
        let type = headerList.last { $0.name.lowercased() == "content-type" }?.value ?? ""
        var content = [member("size", .number(String(call.bodySize ?? 0))), member("mimeType", .string(type))]
        if let body = call.body, !body.isEmpty { content += textMembers(body) }
        if call.bodyCut { content.append(member("comment", .string(cutComment + "the first \(call.body?.count ?? 0) bytes of the body, not all of it"))) }
        let location = headerList.last { $0.name.lowercased() == "location" }?.value ?? ""
        return .object([
            member("status", .number(String(call.status ?? 0))),
            member("statusText", .string(call.reason ?? "")),
            member("httpVersion", .string("HTTP/1.1")),
            member("cookies", .array([])),
            member("headers", headers(headerList)),
            member("content", .object(content)),
            member("redirectURL", .string(location)),
            member("headersSize", .number("-1")),
            member("bodySize", .number(String(call.bodySize ?? -1))),
        ])
    }

    private static func headers(_ list: [Header]) -> JSONValue {
        .array(list.map { .object([member("name", .string($0.name)), member("value", .string($0.value))]) })
    }

    /// The URL's query as HAR's list, decoded.
    private static func queryItems(_ url: String) -> [JSONValue] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return .object([member("name", .string(PercentEncoding.decode(parts[0]))),
                            member("value", .string(parts.count > 1 ? PercentEncoding.decode(parts[1]) : ""))])
        }
    }

    private static func number(_ value: Double) -> JSONValue {
        .number(String(format: "%.3f", max(0, value)))
    }

    private static func member(_ key: String, _ value: JSONValue) -> JSONMember {
        JSONMember(key: key, value: value)
    }
}

extension HARDocument.Entry {
    /// A call of the history, as it holds it (masked).
    init(_ call: StoredCall) {
        self.init(started: call.summary.time, milliseconds: call.summary.elapsedMilliseconds, method: call.summary.method,
                  url: call.summary.url, requestHeaders: call.requestHeaders, requestBody: call.requestBody, status: call.summary.status,
                  reason: call.reason, responseHeaders: call.responseHeaders ?? [], bodySize: call.bodySize, body: call.body,
                  failure: call.summary.failure, comment: "wsh target " + call.summary.target)
    }
}
