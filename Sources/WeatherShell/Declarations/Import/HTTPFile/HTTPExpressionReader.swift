/// Reads what is between `{{` and `}}` in a `.http` file: a variable, one of the `$` values both
/// clients generate, or a reference to a named request's answer or what it sent.
enum HTTPExpressionReader {
    static func read(_ text: String, span: Range<Int>) throws(HTTPFileParser.Failure) -> HTTPExpression {
        if text.hasPrefix("%") {
            // One `%`, as REST Client reads it: `{{%%name}}` would encode twice, which it does not do.
            let inner = String(text.dropFirst()).trimmingBlanks
            guard !inner.hasPrefix("%") else {
                throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': one '%' percent-encodes a value; two are not read", span: span)
            }
            return .percentEncoded(try read(inner, span: span))
        }
        if text.hasPrefix("$") { return try dynamic(text, span: span) }
        let segments = text.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        if segments.count >= 2, segments[1] == "response" || segments[1] == "request" {
            return try reference(segments, text: text, span: span)
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}' is not a variable name", span: span,
                                         notes: ["""
                                             a variable is {{name}}; wsh also reads {{$uuid}}, {{$timestamp}}, {{$randomInt 1 10}}, \
                                             {{$processEnv NAME}}, {{$dotenv NAME}} and {{NAME.response.body.$.path}}
                                             """])
        }
        return .variable(text)
    }

    private static func dynamic(_ text: String, span: Range<Int>) throws(HTTPFileParser.Failure) -> HTTPExpression {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let head = words[0]
        func refuse(_ why: MessageText) -> HTTPFileParser.Failure {
            HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': \(why)", span: span)
        }
        switch head {
        case "$uuid", "$guid", "$random.uuid":
            guard words.count == 1 else { throw refuse("\(head) takes nothing after it") }
            return .uuid
        case "$timestamp":
            if words.count == 1 { return .timestamp }
            return .date(HTTPDate(format: .timestamp, offset: try offset(words.dropFirst(), refuse)))
        case "$isoTimestamp":
            return .isoTimestamp
        case "$datetime", "$localDatetime":
            let local = head == "$localDatetime"
            guard words.count >= 2, words[1] == "iso8601" || words[1] == "rfc1123" else {
                throw refuse("wsh writes \(head) as rfc1123 or iso8601, not in a format of its own")
            }
            let format: HTTPDate.Format = words[1] == "rfc1123" ? .rfc1123 : .iso8601(local: local)
            return .date(HTTPDate(format: format, offset: try offset(words.dropFirst(2), refuse)))
        case "$randomInt":
            // JetBrains' form alone: 0 up to 1000.
            if words.count == 1 { return .randomInt(0, 1000) }
            guard words.count == 3, let low = Int(words[1]), let high = Int(words[2]), low < high else {
                throw refuse("$randomInt takes two whole numbers, the lower first: {{$randomInt 1 100}}")
            }
            return .randomInt(low, high)
        case "$processEnv":
            guard words.count == 2, words[1] != "%" else { throw refuse("$processEnv takes the name of one variable") }
            return words[1].hasPrefix("%") ? .processEnv(String(words[1].dropFirst()), named: true) : .processEnv(words[1], named: false)
        case "$dotenv":
            guard words.count == 2, words[1] != "%" else { throw refuse("$dotenv takes the name of one variable") }
            return words[1].hasPrefix("%") ? .dotenv(String(words[1].dropFirst()), named: true) : .dotenv(words[1], named: false)
        default:
            if head.hasPrefix("$env."), words.count == 1, head.count > 5 { return .processEnv(String(head.dropFirst(5)), named: false) }
            if head.hasPrefix("$random.integer("), head.hasSuffix(")") || text.hasSuffix(")") {
                let inside = text.dropFirst("$random.integer(".count).dropLast().split(separator: ",")
                    .map { $0.trimmingBlanks }
                if inside.count == 2, let low = Int(inside[0]), let high = Int(inside[1]), low < high { return .randomInt(low, high) }
                throw refuse("$random.integer takes two whole numbers, the lower first: {{$random.integer(1, 100)}}")
            }
            throw refuse("wsh does not know this value")
        }
    }

    /// `{{$timestamp -1 d}}`'s offset: a whole number and one of REST Client's units.
    private static func offset(_ words: ArraySlice<String>, _ refuse: (MessageText) -> HTTPFileParser.Failure) throws(HTTPFileParser.Failure) -> Int {
        if words.isEmpty { return 0 }
        let units = ["y": 365 * 86_400, "M": 30 * 86_400, "w": 7 * 86_400, "d": 86_400, "h": 3_600, "m": 60, "s": 1]
        guard words.count == 2, let amount = Int(words[words.startIndex]), let unit = units[words[words.startIndex + 1]],
              (-100_000...100_000).contains(amount) else {
            throw refuse("an offset is a whole number and a unit of y, M, w, d, h, m, s: -1 d")
        }
        return amount * unit
    }

    /// `NAME.(response|request).(body|headers).(PATH|NAME)`, as REST Client writes them.
    private static func reference(_ segments: [String], text: String, span: Range<Int>) throws(HTTPFileParser.Failure) -> HTTPExpression {
        let request = segments[0]
        if segments[1] == "request", segments.count == 4 {
            if segments[2] == "body", segments[3] == "*" { return .requestBody(request: request) }
            if segments[2] == "headers", !segments[3].isEmpty { return .requestHeader(request: request, name: segments[3]) }
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': wsh reads what a request sent as its whole body (*) or a header",
                                         span: span)
        }
        guard segments.count == 4, !segments[3].isEmpty else {
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}' names no part of the answer", span: span,
                                         notes: ["write {{\(request).response.body.$.path}}, {{\(request).response.body.*}} or {{\(request).response.headers.NAME}}"])
        }
        switch segments[2] {
        case "body":
            let path = segments[3]
            guard path == "*" || path.hasPrefix("$") || path.hasPrefix("/") else {
                throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': a body is read whole (*), with a JSONPath ($.token) or an XPath (//token)",
                                             span: span)
            }
            return .responseBody(request: request, path: path)
        case "headers":
            return .responseHeader(request: request, name: segments[3])
        default:
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': an answer has a body and headers", span: span)
        }
    }
}
