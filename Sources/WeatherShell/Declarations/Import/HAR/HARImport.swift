import Foundation
import Targets

/// A HAR 1.2 file's requests as curl command lines, which ``CurlImport`` makes targets of: one per
/// distinct request (its method and URL without the query), with the headers a person would keep
/// (cookies, the browser's own and HTTP/2's pseudo-headers left out), and its answers by status,
/// to keep as samples. What a browser fetched for the page itself (images, scripts, styles, fonts,
/// the document) is left out of a browser's HAR; a HAR that another tool wrote (wsh, an API client
/// such as Insomnia, a proxy such as Charles or mitmproxy) keeps every request.
struct HARImport {
    struct Failure: Error {
        var message: String
    }

    struct Request {
        /// The curl command's words after `curl`.
        var curlWords: [String]
        /// The target's name when wsh wrote the HAR (its comment `wsh target NAME`).
        var name: String?
        /// The first answer's body for each status, as text, in the order met.
        var answers: [(status: Int, text: String)]
        /// Whether it sends a body that is not text (in base64, `"encoding": "base64"`, as wsh
        /// writes one), which a declaration made from a HAR cannot hold.
        var sendsBinary = false
    }

    var requests: [Request]
    /// Whether wsh wrote the HAR: its headers are the ones the user gave, all kept.
    var writtenByWsh = false
    /// The kinds of the entries left out as the page's own resources (`image`, `ping`,
    /// `text/html`), one a left-out entry, in the order met.
    var leftOut: [String] = []
    /// Header names no request can send (`Accept;charset=UTF-8`), left out.
    var invalidHeaderNames: [String] = []
    /// Entries whose URL is not absolute (`""`, `/path`): no request can be made of them.
    var notAbsolute: [String] = []
    /// Multipart parts the HAR gives as files (`fileName`): sent as text parts of the value it holds.
    var filePartsAsText = 0
    /// Answers whose text a wsh report cut (its content's comment says so): not kept as samples.
    var cutAnswers = 0

    /// Headers that say what the browser is, not what the API needs.
    private static let noise: Set<String> = [
        "cookie", "user-agent", "accept-encoding", "accept-language", "connection", "host", "content-length", "referer", "origin",
        "pragma", "cache-control", "upgrade-insecure-requests", "dnt", "priority", "te", "keep-alive", "if-none-match",
        "if-modified-since", "sec-gpc", "x-requested-with",
    ]
    /// What a HAR wsh wrote leaves out of a call's own: what the connection and the cookie jar
    /// make, and wsh's own default headers (``isWshDefault(_:_:)``); a User-Agent or
    /// Accept-Encoding the user gave is kept.
    private static let madeBySending: Set<String> = ["cookie", "connection", "host", "content-length", "keep-alive", "te"]

    /// A header wsh sends by itself, as its history and reports record it: `User-Agent: wsh/VERSION`
    /// (of any version), `Accept: */*`, `Accept-Encoding: gzip, deflate, br`.
    private static func isWshDefault(_ lowercasedName: String, _ value: String) -> Bool {
        switch lowercasedName {
        case "user-agent": value.hasPrefix("wsh/")
        case "accept": value == "*/*"
        case "accept-encoding": value == ContentDecoding.acceptedCodings
        default: false
        }
    }

    init(json: JSONValue) throws(Failure) {
        guard case .array(let entries)? = json["log"]?["entries"] else {
            throw Failure(message: "not a HAR file: it has no log.entries list")
        }
        writtenByWsh = json["log"]?["creator"]?["name"]?.string == "wsh"
        let keepsAll = writtenByWsh
        let fromBrowser = Self.isBrowser(json["log"])
        var seen: [String: Int] = [:]
        var requests: [Request] = []
        for entry in entries {
            guard let request = entry["request"], let method = request["method"]?.string?.uppercased(),
                  var url = request["url"]?.string else { continue }
            guard Self.isAbsolute(url) else {
                notAbsolute.append(url)
                continue
            }
            if fromBrowser, let kind = Self.pageResourceKind(entry) {
                leftOut.append(kind)
                continue
            }
            if !url.contains("?"), case .array(let query)? = request["queryString"], !query.isEmpty {
                url += "?" + query.compactMap { item in
                    item["name"]?.string.map { PercentEncoding.encode($0) + "=" + PercentEncoding.encode(item["value"]?.string ?? "") }
                }.joined(separator: "&")
            }
            let key = method + " " + String(url.prefix { $0 != "?" && $0 != "#" })
            let answer = Self.answer(entry["response"])
            if answer == nil, Self.isCut(entry["response"]) { cutAnswers += 1 }
            if let index = seen[key] {
                if let answer, !requests[index].answers.contains(where: { $0.status == answer.status }) { requests[index].answers.append(answer) }
                continue
            }
            var words = ["-X", method, url]
            var contentType: String?
            if case .array(let headers)? = request["headers"] {
                for header in headers {
                    guard let name = header["name"]?.string, let value = header["value"]?.string else { continue }
                    let lower = name.lowercased()
                    let left = keepsAll ? !Self.madeBySending.contains(lower) && !Self.isWshDefault(lower, value)
                                        : !Self.noise.contains(lower) && !lower.hasPrefix("sec-")
                    guard !name.hasPrefix(":"), left else { continue }
                    guard TargetCompiler.isHeaderName(name) else {
                        if !invalidHeaderNames.contains(name) { invalidHeaderNames.append(name) }
                        continue
                    }
                    if lower == "content-type" { contentType = value }
                    words += ["-H", "\(name): \(value)"]
                }
            }
            var sendsBinary = false
            if let postData = request["postData"] {
                let mimeType = postData["mimeType"]?.string
                if contentType == nil, let mimeType, !mimeType.lowercased().hasPrefix("multipart/") { words += ["-H", "Content-Type: \(mimeType)"] }
                if let written = postData["text"]?.string, !written.isEmpty {
                    // `"encoding": "base64"` is no field of HAR 1.2's postData, but wsh and other tools write it there as in `content`.
                    let text = postData["encoding"]?.string == "base64" ? Self.base64Text(written) : written
                    sendsBinary = text.map { $0.contains("\0") } ?? true
                    words += ["--data-raw", text ?? ""]
                } else if case .array(let params)? = postData["params"], !params.isEmpty {
                    let pairs = params.compactMap { param in param["name"]?.string.map { ($0, param["value"]?.string ?? "") } }
                    if mimeType?.lowercased().hasPrefix("multipart/") == true {
                        // A part's value as it is (`--form-string`: no `@file` or `<file` read from this machine).
                        // The browser's Content-Type names its own boundary: the body's own replaces it.
                        while let index = words.indices.dropFirst().first(where: {
                            words[$0 - 1] == "-H" && words[$0].lowercased().hasPrefix("content-type: multipart/")
                        }) {
                            words.removeSubrange(index - 1...index)
                        }
                        for (name, value) in pairs { words += ["--form-string", "\(name)=\(value)"] }
                        filePartsAsText += params.count { $0["fileName"]?.string != nil }
                    } else {
                        words += ["--data-raw", pairs.map { "\($0)=\($1)" }.joined(separator: "&")]
                    }
                }
            }
            seen[key] = requests.count
            // A HAR wsh wrote names each call's target (`wsh target NAME` from history export har,
            // `wsh test FILE: NAME` from --report-har); an ad-hoc request's `(get)` is no name.
            let name = keepsAll ? entry["comment"]?.string.flatMap(Self.targetName) : nil
            requests.append(Request(curlWords: words, name: name, answers: answer.map { [$0] } ?? [], sendsBinary: sendsBinary))
        }
        self.requests = requests
    }

    /// The target a wsh-written entry's comment names: `wsh target NAME`, `wsh test FILE: NAME`;
    /// nil for an ad-hoc request's `(get)` or another comment.
    static func targetName(_ comment: String) -> String? {
        let name: Substring
        if comment.hasPrefix("wsh target ") {
            name = comment.dropFirst("wsh target ".count)
        } else if comment.hasPrefix("wsh test "), let colon = comment.range(of: ": ", options: .backwards) {
            name = comment[colon.upperBound...]
        } else {
            return nil
        }
        return name.isEmpty || name.hasSuffix(")") ? nil : String(name)
    }

    /// Whether `url` is `http://HOST...` or `https://HOST...`, what a HAR 1.2 request's URL is.
    private static func isAbsolute(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else { return false }
        return !url.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }.isEmpty
    }

    /// Whether a browser wrote the HAR: its `browser` is there (Firefox), or its creator is a
    /// browser's developer tools (Chrome's and Edge's `WebInspector`, Safari's `WebKit Web Inspector`).
    private static func isBrowser(_ log: JSONValue?) -> Bool {
        guard log?["browser"] == nil else { return true }
        let creator = log?["creator"]?["name"]?.string?.lowercased() ?? ""
        return ["webinspector", "web inspector", "firefox", "chrome", "safari"].contains { creator.contains($0) }
    }

    /// What kind of a browser's fetch for the page itself the entry is, by the DevTools resource
    /// type when the HAR has it (`image`, `ping`, `websocket`), else by the answer's media type
    /// (`text/html`); nil for a request the page's code made (`xhr`, `fetch`).
    private static func pageResourceKind(_ entry: JSONValue) -> String? {
        if let type = entry["_resourceType"]?.string?.lowercased() { return ["xhr", "fetch"].contains(type) ? nil : type }
        let mimeType = (entry["response"]?["content"]?["mimeType"]?.string?.lowercased() ?? "").prefix { $0 != ";" }
        let isResource = ["image/", "font/", "text/css", "text/javascript", "application/javascript", "text/html"].contains { mimeType.hasPrefix($0) }
        return isResource ? String(mimeType) : nil
    }

    private static func answer(_ response: JSONValue?) -> (status: Int, text: String)? {
        guard let response, let status = response["status"]?.int, (100...599).contains(status),
              let text = response["content"]?["text"]?.string, !text.isEmpty, !isCut(response) else { return nil }
        if response["content"]?["encoding"]?.string == "base64" {
            guard let decoded = base64Text(text), !decoded.contains("\0") else { return nil }
            return (status, decoded)
        }
        return (status, text)
    }

    /// Whether an answer's text is only the first part of the body, as a wsh test report marks
    /// one it cut. (Not read from `size`: a report's text is masked, so shorter, and a browser's
    /// `size` counts a BOM its text does not hold.)
    private static func isCut(_ response: JSONValue?) -> Bool {
        response?["content"]?["comment"]?.string?.hasPrefix(HARDocument.cutComment) == true
    }

    /// The UTF-8 text that `base64` holds; nil when it holds no such text.
    private static func base64Text(_ base64: String) -> String? {
        Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}
