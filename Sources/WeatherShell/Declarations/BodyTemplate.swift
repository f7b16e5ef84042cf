import Targets

/// How `body "TEXT"` puts a variable into the body it writes: encoded for where it stands, so a
/// value holding `"`, `&` or `<` cannot break the body or add to it. The body's kind comes from
/// the target's `Content-Type` header, else from the text's first character (`{` or `[` JSON,
/// `<` XML; a body read as JSON that way is sent as `application/json`). `body raw "TEXT"` puts
/// variables in as they are; `body graphql "TEXT"` is a GraphQL request's JSON (`{"query": ...}`).
///
/// - JSON: inside a string, the value JSON-escaped (`"a\"b"`); elsewhere, the value as JSON of
///   its type (`let n = 3` writes `3`, `let s = "x"` writes `"x"`, a list or object as itself).
/// - Form (`application/x-www-form-urlencoded`): the value percent-encoded.
/// - XML: `& < > " '` as references (``MarkupEscape``), every other character as it is.
/// - GraphQL: as JSON, and a value inside a string of the query (`"query { user(name: \"$v\") }"`)
///   escaped for the GraphQL string too, so that it cannot end that string and add to the query.
/// - Anything else: the value as it is.
enum BodyTemplate {
    enum Kind: Equatable { case json, graphQL, form, xml, raw }

    /// The kind of a body whose template is `word`, sent as `contentType` (nil when the target names none).
    static func kind(of word: Word, contentType: String?) -> Kind {
        if let contentType = contentType?.lowercased() {
            let essence = (contentType.split(separator: ";").first.map(String.init) ?? contentType).filter { $0 != " " && $0 != "\t" }
            if essence.hasSuffix("json") { return .json }
            if essence.hasSuffix("xml") { return .xml }
            if essence == "application/x-www-form-urlencoded" { return .form }
            return .raw
        }
        guard case .literal(let text)? = word.parts.first?.content,
              let first = text.first(where: { !$0.isWhitespace }) else { return .raw }
        switch first {
        case "{", "[": return .json
        case "<": return .xml
        default: return .raw
        }
    }

    /// The text of `word` with each variable, as `variable` gives it, written for a body of `kind`.
    static func render(_ word: Word, kind: Kind, variable: (String, SourceSpan) throws -> Variable) throws -> String {
        var text = ""
        var json = JSONStringState()
        var graphQL = GraphQLEnvelopeState()
        for part in word.parts {
            switch part.content {
            case .literal(let piece):
                text += piece
                if kind == .json { json.read(piece) }
                if kind == .graphQL { graphQL.read(piece) }
            case .variable(let name):
                let value = try variable(name, part.span)
                switch kind {
                case .json where json.isInString: text += escaped(value.value)
                case .json: text += Self.jsonText(value.typedValue)
                case .graphQL:
                    guard let written = graphQL.written(value) else { throw ValueDoesNotFit(name: name, span: part.span) }
                    text += written
                case .form: text += PercentEncoding.encode(value.value)
                case .xml: text += MarkupEscape.escaped(value.value)
                case .raw: text += value.value
                }
            }
        }
        return text
    }

    /// A value as JSON; a number kept as written that JSON cannot hold as one (`00123`, `+5`, `5.`,
    /// from `--var s=00123`) as a string, so that no value breaks the body.
    static func jsonText(_ value: JSONValue) -> String {
        if case .number(let literal) = value, (try? JSONValue.parse(literal)) == nil { return JSONValue.quoted(literal) }
        return value.compactText
    }

    /// A value a GraphQL block string (`"""..."""`) cannot hold: one ending in `"` or `\`.
    struct ValueDoesNotFit: Error {
        var name: String
        var span: SourceSpan
    }

    /// The inside of a JSON string holding `text`.
    static func escaped(_ text: String) -> String {
        String(JSONValue.quoted(text).dropFirst().dropLast())
    }

    /// Whether JSON text read so far ends inside a string.
    struct JSONStringState {
        private(set) var isInString = false
        private var escaping = false

        mutating func read(_ text: String) {
            for character in text.unicodeScalars { read(character) }
        }

        mutating func read(_ character: Unicode.Scalar) {
            if escaping { escaping = false } else if isInString && character == "\\" { escaping = true } else if character == "\"" { isInString.toggle() }
        }
    }
}
