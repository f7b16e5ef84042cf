import Targets

/// Reads a `.http` file: what the JetBrains HTTP Client and VS Code's REST Client formats share
/// (docs/files-from-other-tools.md). A line it does not understand is an error at its place,
/// never skipped: JavaScript handler scripts (`> {% ... %}`, `< {% ... %}`, `> file.js`) above all.
struct HTTPFileParser {
    struct Failure: Error {
        var message: MessageText
        var span: Range<Int>
        var notes: [MessageText] = []
    }

    private let bytes: [UInt8]
    /// Each line's byte range, without its line break.
    private let lines: [Range<Int>]

    private init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = Array(bytes.dropFirst(3)) }
        self.bytes = bytes
        var lines: [Range<Int>] = []
        var start = 0
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(start..<(offset > start && bytes[offset - 1] == UInt8(ascii: "\r") ? offset - 1 : offset))
            start = offset + 1
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        self.lines = lines
    }

    /// The file's variables and requests, or the first thing in it that cannot be read.
    static func parse(_ text: String) throws(Failure) -> HTTPFile {
        try HTTPFileParser(text).parse()
    }

    /// The `{{...}}` of a whole text: a file included with `<@ ./file`.
    static func template(of text: String) throws(Failure) -> HTTPTemplate {
        let parser = HTTPFileParser(text)
        return try parser.template(in: 0..<parser.bytes.count)
    }

    /// Methods a request line may start with; any other word in capitals is one too (`PROPFIND`).
    private static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"]

    /// httpyac's requests of other protocols, by the word before the URL or the URL's scheme.
    private static let otherProtocols = ["MQTT": "MQTT", "MQTTS": "MQTT", "AMQP": "AMQP", "AMQPS": "AMQP", "GRPC": "gRPC",
                                         "WS": "WebSocket", "WSS": "WebSocket", "WEBSOCKET": "WebSocket",
                                         "SSE": "server-sent events", "EVENTSOURCE": "server-sent events"]

    private enum Place { case beforeRequest, headers, body }

    private func parse() throws(Failure) -> HTTPFile {
        var items: [HTTPFile.Item] = []
        var place = Place.beforeRequest
        var request: HTTPFile.Request?
        var directives = Directives()
        var bodyLines: [Range<Int>] = []

        func finishRequest() throws(Failure) {
            if var done = request {
                if isGraphQL(done) {
                    try makeGraphQL(&done, bodyLines)
                } else {
                    done.body = try body(bodyLines)
                }
                items.append(.request(done))
            }
            request = nil
            bodyLines = []
            place = .beforeRequest
        }

        // httpyac's `/* ... */` on lines of its own, before a request or among its headers: skipped
        // to the line that ends it; one never ended is an error, not the rest of the file skipped.
        var openComment: Range<Int>?
        for line in lines {
            let text = string(line)
            let trimmed = text.trimmingBlanks
            if openComment != nil {
                if trimmed.hasSuffix("*/") { openComment = nil }
                continue
            }
            if place != .body, trimmed.hasPrefix("/*") {
                if !trimmed.dropFirst(2).contains("*/") {
                    openComment = line
                    continue
                }
                if trimmed.hasSuffix("*/") { continue }
            }
            if trimmed.hasPrefix("###") {
                try finishRequest()
                directives = Directives()
                let title = trimmed.dropFirst(3).trimmingBlanks
                if !title.isEmpty { directives.title = title }
                continue
            }
            switch place {
            case .beforeRequest:
                if trimmed.isEmpty { continue }
                if trimmed.hasPrefix("#") || trimmed.hasPrefix("//") {
                    try directives.read(comment: trimmed, span: line)
                    continue
                }
                if trimmed.hasPrefix("<") {
                    // `< {% ... %}`, or JetBrains' `< ./pre.js`: a script run before the request.
                    throw Failure(message: "a pre-request script is JavaScript, which wsh does not run", span: line,
                                  notes: ["set the values it computes as @name = value, with --var, or in an environment file"])
                }
                if Self.isScriptBlock(trimmed) { throw scriptBlock(line) }
                if trimmed.hasPrefix("curl ") || trimmed == "curl" {
                    throw Failure(message: "a curl command, which a .http file of wsh does not send", span: line,
                                  notes: ["import curl reads it: import curl \(trimmed.count > 40 ? "curl ..." : trimmed) as NAME, then call NAME"])
                }
                if trimmed.hasPrefix("@") {
                    items.append(.variable(try variable(line)))
                    continue
                }
                request = try requestLine(line, directives)
                place = .headers
            case .headers:
                if trimmed.isEmpty {
                    place = .body
                    continue
                }
                if trimmed.hasPrefix("#") || trimmed.hasPrefix("//") { continue }
                if trimmed.hasPrefix(">>") {
                    request?.saveTo = try saveTo(trimmed, line)
                    continue
                }
                if trimmed.hasPrefix("??") { throw assertion(line) }
                if Self.isScriptBlock(trimmed) { throw scriptBlock(line) }
                if let first = text.first, first == " " || first == "\t" {
                    // Indented: the URL goes on (a path or query split over lines, joined with
                    // nothing between), or, after a header, that header's value (joined with a blank).
                    let rest = try template(in: firstNonBlank(line)..<line.upperBound).parts
                    if let last = request?.headers.indices.last {
                        request?.headers[last].value.parts += [.text(" ")] + rest
                    } else {
                        request?.url.parts += rest
                    }
                    continue
                }
                if trimmed.hasPrefix(">") { throw handlerScript(line) }
                request?.headers.append(try header(line))
            case .body:
                if trimmed.hasPrefix("<>") { continue }  // the IDE's link to a saved answer
                if trimmed.hasPrefix(">>") {
                    request?.saveTo = try saveTo(trimmed, line)
                    continue
                }
                if trimmed.hasPrefix(">") { throw handlerScript(line) }
                if trimmed.hasPrefix("??") { throw assertion(line) }
                if Self.isScriptBlock(trimmed) { throw scriptBlock(line) }
                bodyLines.append(line)
            }
        }
        if let openComment {
            throw Failure(message: "a '/*' comment is not closed: it ends at a line that ends with '*/'", span: openComment)
        }
        try finishRequest()
        return HTTPFile(items: items)
    }

    /// What the comments before a request say of it: `@name`, `@no-redirect`...
    private struct Directives {
        var name: String?
        var title: String?
        var noRedirect = false
        var noCookieJar = false
        var timeout: String?

        mutating func read(comment: String, span: Range<Int>) throws(Failure) {
            let body = (comment.hasPrefix("#") ? comment.dropFirst() : comment.dropFirst(2)).trimmingBlanks
            guard body.hasPrefix("@") else { return }
            let word = String(body.dropFirst().prefix { !$0.isWhitespace && $0 != "=" })
            var value = body.dropFirst(1 + word.count).trimmingBlanks
            if value.hasPrefix("=") { value = value.dropFirst().trimmingBlanks }
            switch word {
            case "name":
                guard !value.isEmpty else { throw Failure(message: "@name needs a name: # @name login", span: span) }
                name = value
            case "no-redirect": noRedirect = true
            case "no-cookie-jar": noCookieJar = true
            case "timeout":
                guard !value.isEmpty else { throw Failure(message: "@timeout needs a duration: # @timeout 10 (seconds), 500 ms", span: span) }
                timeout = value
            case "no-log", "note", "no-auto-encoding":
                // Editor matters with nothing to send differently from the command line: wsh has no
                // response-history panel, asks for no confirmation, and encodes as written.
                return
            case "prompt":
                throw Failure(message: "wsh does not ask for values while a file runs (@prompt)", span: span,
                              notes: ["give the value on the command line: --var \(value.split(separator: " ").first ?? "NAME")=VALUE"])
            default:
                throw Failure(message: "wsh does not know the directive '@\(word)'", span: span,
                              notes: ["known: @name, @no-redirect, @no-cookie-jar, @timeout, @no-log, @note, @no-auto-encoding"])
            }
        }
    }

    /// `@name = value`.
    private func variable(_ line: Range<Int>) throws(Failure) -> HTTPFile.Variable {
        let start = firstNonBlank(line) + 1
        guard let equals = bytes[start..<line.upperBound].firstIndex(of: UInt8(ascii: "=")) else {
            throw Failure(message: "a file variable is written @name = value", span: line)
        }
        let name = string(start..<equals).trimmingBlanks
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
            throw Failure(message: "a variable name is letters, digits, '_', '-' and '.'", span: start..<equals)
        }
        var valueStart = equals + 1
        while valueStart < line.upperBound, bytes[valueStart] == UInt8(ascii: " ") || bytes[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        var valueEnd = line.upperBound
        while valueEnd > valueStart, bytes[valueEnd - 1] == UInt8(ascii: " ") || bytes[valueEnd - 1] == UInt8(ascii: "\t") { valueEnd -= 1 }
        return HTTPFile.Variable(name: name, value: try template(in: valueStart..<valueEnd), span: line)
    }

    /// `METHOD URL [HTTP/VERSION]`, or a URL alone (GET).
    private func requestLine(_ line: Range<Int>, _ directives: Directives) throws(Failure) -> HTTPFile.Request {
        var words = words(in: line)
        var method = "GET"
        if let first = words.first, words.count > 1,
           Self.methods.contains(string(first)) || string(first).allSatisfy({ $0.isUppercase || $0 == "-" || $0 == "_" }) {
            method = string(first)
            words.removeFirst()
        }
        // The version is not chosen by the line (wsh asks for HTTP/2 over TLS, as curl does); JetBrains
        // writes `HTTP/2 (Prior Knowledge)` for HTTP/2 without TLS.
        if words.count == 4, string(words[1]).hasPrefix("HTTP/"), string(words[2]) == "(Prior", string(words[3]) == "Knowledge)" {
            words.removeLast(2)
        }
        if words.count == 2, string(words[1]).hasPrefix("HTTP/") { words.removeLast() }
        let url = words.first.map { string($0).lowercased() } ?? ""
        let scheme = url.contains("://") ? url.prefix { $0 != ":" } : ""
        if let other = Self.otherProtocols[method] ?? Self.otherProtocols[scheme.uppercased()] {
            throw Failure(message: "a request over \(other) is httpyac's: wsh sends HTTP requests only", span: line)
        }
        guard words.count == 1, let url = words.first else {
            throw Failure(message: "a request line is METHOD URL [HTTP/VERSION]", span: line,
                          notes: ["a URL with a space in it is written with %20"])
        }
        return HTTPFile.Request(name: directives.name, title: directives.title, method: method, url: try template(in: url),
                                headers: [], body: [], noRedirect: directives.noRedirect, noCookieJar: directives.noCookieJar,
                                timeout: directives.timeout, span: line)
    }

    /// `Name: value`.
    private func header(_ line: Range<Int>) throws(Failure) -> HTTPFile.Header {
        let start = firstNonBlank(line)
        guard let colon = bytes[start..<line.upperBound].firstIndex(of: UInt8(ascii: ":")), colon > start else {
            throw Failure(message: "expected a header 'Name: value', or a blank line before the body", span: line)
        }
        let name = string(start..<colon).trimmingBlanks
        guard TargetCompiler.isHeaderName(name) else {
            throw Failure(message: "'\(name.prefix(60))' cannot be a header name", span: start..<colon)
        }
        var valueStart = colon + 1
        while valueStart < line.upperBound, bytes[valueStart] == UInt8(ascii: " ") || bytes[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        return HTTPFile.Header(name: name, value: try template(in: valueStart..<line.upperBound), span: line)
    }

    /// The body's lines as pieces, trailing blank lines left out: text, and `< ./file` lines.
    private func body(_ lines: [Range<Int>]) throws(Failure) -> [HTTPFile.BodyPiece] {
        var lines = lines
        while let last = lines.last, string(last).trimmingBlanks.isEmpty { lines.removeLast() }
        var pieces: [HTTPFile.BodyPiece] = []
        var text: [HTTPTemplate.Part] = []
        func endText() {
            if !text.isEmpty { pieces.append(.text(HTTPTemplate(parts: text))) }
            text = []
        }
        for (index, line) in lines.enumerated() {
            // Lines are joined by "\n", an included file's line too: "\n" in a body's text parts is
            // only ever this separator (a multipart body sends it as CRLF).
            if index > 0 { text.append(.text("\n")) }
            let trimmed = string(line).trimmingBlanks
            if trimmed.hasPrefix("< {%") || trimmed.hasPrefix("<{%") {
                throw Failure(message: "a script is JavaScript, which wsh does not run", span: line)
            }
            if let include = Self.include(trimmed) {
                guard !include.path.isEmpty else { throw Failure(message: "'<' names a file to send: < ./body.json", span: line) }
                endText()
                pieces.append(.file(path: include.path, substitutes: include.substitutes, encoding: include.encoding, span: line))
                continue
            }
            text += try template(in: line).parts
        }
        endText()
        return pieces
    }

    /// `< PATH`, `<@ PATH` (its `{{...}}` substituted) or `<@ENCODING PATH` (REST Client's
    /// `<@latin1 ./demo.xml`); nil for a line that is none of these.
    private static func include(_ line: String) -> (path: String, substitutes: Bool, encoding: String?)? {
        guard line.hasPrefix("<") else { return nil }
        var rest = line.dropFirst()
        let substitutes = rest.hasPrefix("@")
        if substitutes { rest = rest.dropFirst() }
        let encoding = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        rest = rest.dropFirst(encoding.count)
        guard let blank = rest.first, blank == " " || blank == "\t", encoding.isEmpty || substitutes else { return nil }
        return (rest.trimmingBlanks, substitutes, encoding.isEmpty ? nil : String(encoding))
    }

    /// `>> PATH` or `>>! PATH`: where JetBrains saves the answer's body.
    private func saveTo(_ trimmed: String, _ line: Range<Int>) throws(Failure) -> (path: String, overwrites: Bool) {
        let overwrites = trimmed.hasPrefix(">>!")
        let path = trimmed.dropFirst(overwrites ? 3 : 2).trimmingBlanks
        guard !path.isEmpty else { throw Failure(message: "'>>' names a file to save the answer's body in: >> ./answer.json", span: line) }
        return (path, overwrites)
    }

    /// JetBrains' `GRAPHQL URL`, or REST Client's `X-Request-Type: GraphQL` header.
    private func isGraphQL(_ request: HTTPFile.Request) -> Bool {
        request.method == "GRAPHQL" || request.headers.contains { $0.name.lowercased() == "x-request-type" && $0.value.parts == [.text("GraphQL")] }
    }

    /// A GraphQL request as both clients send it: a POST of `{"query": ..., "variables": ...}`, the
    /// query being the body's lines up to the first blank one and the variables (JSON) the lines
    /// after it, `{}` when there are none; REST Client's `X-Request-Type` header is not sent, and
    /// JetBrains' `GRAPHQL` says `Content-Type: application/json` when the request does not.
    private func makeGraphQL(_ request: inout HTTPFile.Request, _ lines: [Range<Int>]) throws(Failure) {
        request.headers.removeAll { $0.name.lowercased() == "x-request-type" }
        request.isGraphQL = true
        if request.method == "GRAPHQL" {
            request.method = "POST"
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                request.headers.append(HTTPFile.Header(name: "Content-Type", value: HTTPTemplate(parts: [.text("application/json")]), span: request.span))
            }
        }
        var lines = lines
        while let last = lines.last, string(last).trimmingBlanks.isEmpty { lines.removeLast() }
        let blank = lines.firstIndex { string($0).trimmingBlanks.isEmpty } ?? lines.endIndex
        var parts: [HTTPTemplate.Part] = [.text(#"{"query": ""#)]
        for (index, line) in lines[..<blank].enumerated() {
            if index > 0 { parts.append(.text("\\n")) }
            for part in try template(in: line).parts {
                guard case .text(let text) = part else { parts.append(part); continue }
                parts.append(.text(String(JSONValue.string(text).compactText.dropFirst().dropLast())))
            }
        }
        parts.append(.text(#"", "variables": "#))
        let variables = lines[blank...].drop { string($0).trimmingBlanks.isEmpty }
        if variables.isEmpty { parts.append(.text("{}")) }
        for (index, line) in variables.enumerated() {
            if index > 0 { parts.append(.text("\n")) }
            parts += try template(in: line).parts
        }
        parts.append(.text("}"))
        request.body = [.text(HTTPTemplate(parts: parts))]
    }

    private func handlerScript(_ line: Range<Int>) -> Failure {
        Failure(message: "a response handler is JavaScript, which wsh does not run", span: line,
                notes: ["check the answer with wsh instead: expect status == 200, expect .token exists (docs/files-from-other-tools.md)"])
    }

    /// Whether a line opens one of httpyac's script blocks: `{{` (or `{{@response`, `{{+`...) with
    /// no `}}` on its line, the JavaScript running to a line `}}`.
    private static func isScriptBlock(_ trimmed: String) -> Bool {
        trimmed.hasPrefix("{{") && !trimmed.contains("}}")
    }

    private func scriptBlock(_ line: Range<Int>) -> Failure {
        Failure(message: "a script block ('{{' to '}}') is httpyac's JavaScript, which wsh does not run", span: line,
                notes: ["""
                    set the values it computes as @name = value, with --var, or in an environment file; \
                    check the answer with wsh instead: expect status == 200 (docs/files-from-other-tools.md)
                    """])
    }

    /// httpyac's `?? status == 200`, `?? body ...`: a check wsh does not read, refused so that it is
    /// neither sent as the body nor taken for a check that passed.
    private func assertion(_ line: Range<Int>) -> Failure {
        Failure(message: "wsh does not run httpyac's assertions ('??')", span: line,
                notes: ["check the answer with wsh instead: expect status == 200, expect .token exists (docs/files-from-other-tools.md)"])
    }

    /// The `{{...}}` in a span of the file, and the text around them.
    private func template(in span: Range<Int>) throws(Failure) -> HTTPTemplate {
        var parts: [HTTPTemplate.Part] = []
        var index = span.lowerBound
        var textStart = index
        while index < span.upperBound {
            if bytes[index] == UInt8(ascii: "{"), index + 1 < span.upperBound, bytes[index + 1] == UInt8(ascii: "{") {
                if textStart < index { parts.append(.text(string(textStart..<index))) }
                var end = index + 2
                while end + 1 < span.upperBound, !(bytes[end] == UInt8(ascii: "}") && bytes[end + 1] == UInt8(ascii: "}")) { end += 1 }
                guard end + 1 < span.upperBound else {
                    throw Failure(message: "'{{' is not closed by '}}' on its line", span: index..<(index + 2))
                }
                let whole = index..<(end + 2)
                parts.append(.expression(try HTTPExpressionReader.read(string((index + 2)..<end).trimmingBlanks, span: whole), span: whole))
                index = end + 2
                textStart = index
                continue
            }
            index += 1
        }
        if textStart < span.upperBound { parts.append(.text(string(textStart..<span.upperBound))) }
        return HTTPTemplate(parts: parts)
    }

    /// The blank-separated words of a line; a `{{...}}` is inside one word, blanks and all.
    private func words(in line: Range<Int>) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = line.lowerBound
        func isBlank(_ index: Int) -> Bool { bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") }
        func opens(_ index: Int) -> Bool { index + 1 < line.upperBound && bytes[index] == UInt8(ascii: "{") && bytes[index + 1] == UInt8(ascii: "{") }
        func closes(_ index: Int) -> Bool { index + 1 < line.upperBound && bytes[index] == UInt8(ascii: "}") && bytes[index + 1] == UInt8(ascii: "}") }
        while index < line.upperBound {
            while index < line.upperBound, isBlank(index) { index += 1 }
            let start = index
            var inside = false
            while index < line.upperBound, inside || !isBlank(index) {
                if !inside, opens(index) { inside = true; index += 2; continue }
                if inside, closes(index) { inside = false; index += 2; continue }
                index += 1
            }
            if start < index { words.append(start..<index) }
        }
        return words
    }

    private func firstNonBlank(_ line: Range<Int>) -> Int {
        bytes[line].firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? line.upperBound
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    var trimmingBlanks: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
