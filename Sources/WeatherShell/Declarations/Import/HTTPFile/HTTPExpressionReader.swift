/// Reads what is between `{{` and `}}` in a `.http` file: a variable, one of the `$` values both
/// clients generate, or a reference to a named request's answer.
enum HTTPExpressionReader {
    static func read(_ text: String, span: Range<Int>) throws(HTTPFileParser.Failure) -> HTTPExpression {
        if text.hasPrefix("$") { return try dynamic(text, span: span) }
        let segments = text.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        if segments.count >= 2, segments[1] == "response" || segments[1] == "request" {
            return try reference(segments, text: text, span: span)
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}' is not a variable name", span: span,
                                         notes: ["a variable is {{name}}; wsh also reads {{$uuid}}, {{$timestamp}}, {{$randomInt 1 10}}, "
                                                 + "{{$processEnv NAME}}, {{$dotenv NAME}} and {{NAME.response.body.$.path}}"])
        }
        return .variable(text)
    }

    private static func dynamic(_ text: String, span: Range<Int>) throws(HTTPFileParser.Failure) -> HTTPExpression {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let head = words[0]
        func refuse(_ why: String) -> HTTPFileParser.Failure {
            HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': \(why)", span: span)
        }
        switch head {
        case "$uuid", "$guid", "$random.uuid":
            guard words.count == 1 else { throw refuse("\(head) takes nothing after it") }
            return .uuid
        case "$timestamp":
            guard words.count == 1 else { throw refuse("wsh does not shift $timestamp by an offset") }
            return .timestamp
        case "$isoTimestamp":
            return .isoTimestamp
        case "$datetime":
            guard words.count == 2, words[1] == "iso8601" else { throw refuse("wsh writes $datetime iso8601 only, with no offset") }
            return .isoTimestamp
        case "$randomInt":
            guard words.count == 3, let low = Int(words[1]), let high = Int(words[2]), low < high else {
                throw refuse("$randomInt takes two whole numbers, the lower first: {{$randomInt 1 100}}")
            }
            return .randomInt(low, high)
        case "$processEnv", "$dotenv":
            guard words.count == 2, !words[1].hasPrefix("%") else {
                throw refuse("\(head) takes the name of one variable (wsh does not read the %NAME form)")
            }
            return head == "$dotenv" ? .dotenv(words[1]) : .processEnv(words[1])
        default:
            if head.hasPrefix("$env."), words.count == 1, head.count > 5 { return .processEnv(String(head.dropFirst(5))) }
            if head.hasPrefix("$random.integer("), head.hasSuffix(")") || text.hasSuffix(")") {
                let inside = text.dropFirst("$random.integer(".count).dropLast().split(separator: ",")
                    .map { $0.trimmingBlanks }
                if inside.count == 2, let low = Int(inside[0]), let high = Int(inside[1]), low < high { return .randomInt(low, high) }
                throw refuse("$random.integer takes two whole numbers, the lower first: {{$random.integer(1, 100)}}")
            }
            throw refuse("wsh does not know this value")
        }
    }

    /// `NAME.response.body.PATH` or `NAME.response.headers.NAME`, as REST Client writes them.
    private static func reference(_ segments: [String], text: String, span: Range<Int>) throws(HTTPFileParser.Failure) -> HTTPExpression {
        let request = segments[0]
        guard segments[1] == "response" else {
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': wsh reads the answers of named requests, not what they sent",
                                         span: span)
        }
        guard segments.count == 4, !segments[3].isEmpty else {
            throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}' names no part of the answer", span: span,
                                         notes: ["write {{\(request).response.body.$.path}}, {{\(request).response.body.*}} or {{\(request).response.headers.NAME}}"])
        }
        switch segments[2] {
        case "body":
            let path = segments[3]
            guard path == "*" || path.hasPrefix("$") else {
                throw HTTPFileParser.Failure(message: "'{{\(text.prefix(60))}}': wsh reads a body with a JSONPath ($.token) or whole (*); XPath is not read",
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
