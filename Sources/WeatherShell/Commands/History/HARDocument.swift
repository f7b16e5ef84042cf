import CallHistory
import Checks
import Foundation
import Targets

/// Calls of the history as a HAR 1.2 document (the format browsers' developer tools export): each
/// call an entry with its request and answer as the history holds them (secrets already `***`),
/// its start time, and its time as wsh measured it (all of it as `wait`: wsh does not measure the
/// parts). A call that got no answer has status 0 and its failure in `_error`, as Chromium writes it.
enum HARDocument {
    static func text(_ calls: [StoredCall], creatorVersion: String) -> String {
        let entries = calls.map(entry)
        let log: JSONValue = .object([
            member("version", .string("1.2")),
            member("creator", .object([member("name", .string("wsh")), member("version", .string(creatorVersion))])),
            member("pages", .array([])),
            member("entries", .array(entries)),
        ])
        return JSONValue.object([member("log", log)]).prettyText + "\n"
    }

    private static func entry(_ call: StoredCall) -> JSONValue {
        let milliseconds = number(call.summary.elapsedMilliseconds)
        var members = [
            member("startedDateTime", .string(DateText.iso(call.summary.time, fractionDigits: 3))),
            member("time", milliseconds),
            member("request", request(call)),
            member("response", response(call)),
            member("cache", .object([])),
            member("timings", .object([member("send", .number("0")), member("wait", milliseconds), member("receive", .number("0"))])),
        ]
        if let failure = call.summary.failure { members.append(member("_error", .string(failure))) }
        members.append(member("comment", .string("wsh target " + call.summary.target)))
        return .object(members)
    }

    private static func request(_ call: StoredCall) -> JSONValue {
        var members = [
            member("method", .string(call.summary.method)),
            member("url", .string(call.summary.url)),
            member("httpVersion", .string("HTTP/1.1")),
            member("cookies", .array([])),
            member("headers", headers(call.requestHeaders)),
            member("queryString", .array(queryItems(call.summary.url))),
            member("headersSize", .number("-1")),
            member("bodySize", .number(String(call.requestBody?.count ?? 0))),
        ]
        if let body = call.requestBody, !body.isEmpty {
            let type = call.requestHeaders.last { $0.name.lowercased() == "content-type" }?.value ?? "application/octet-stream"
            members.append(member("postData", .object([member("mimeType", .string(type)),
                                                       member("text", .string(String(decoding: body, as: UTF8.self)))])))
        }
        return .object(members)
    }

    private static func response(_ call: StoredCall) -> JSONValue {
        let headerList = call.responseHeaders ?? []
        let type = headerList.last { $0.name.lowercased() == "content-type" }?.value ?? ""
        var content = [member("size", .number(String(call.bodySize ?? 0))), member("mimeType", .string(type))]
        if let body = call.body, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                content.append(member("text", .string(text)))
            } else {
                content.append(member("text", .string(body.base64EncodedString())))
                content.append(member("encoding", .string("base64")))
            }
        }
        let location = headerList.last { $0.name.lowercased() == "location" }?.value ?? ""
        return .object([
            member("status", .number(String(call.summary.status ?? 0))),
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
