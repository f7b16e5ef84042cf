import Targets

extension BodyTemplate {
    /// Where a GraphQL request's JSON (`{"query": "...", "variables": {...}}`) read so far ends:
    /// outside any string, in a string of the envelope's own members (the query's text, JSON-escaped),
    /// and there in a GraphQL string (`"..."`), a block string (`"""..."""`) or a `#` comment. A
    /// string deeper in the JSON (inside `variables`) is plain JSON.
    struct GraphQLEnvelopeState {
        enum Place { case code, string, blockString, comment }

        private var json = JSONStringState()
        private var depth = 0
        private var place = Place.code
        private var jsonEscape: [Unicode.Scalar]?
        /// `"` read in a row in code: two are an empty string, or the start of a block string.
        private var quotesInCode = 0
        /// `"` read in a row in a block string, and whether a `\` came before them (`\"""`).
        private var quotesInBlock = 0
        private var blockQuotesEscaped = false
        private var stringEscape = false
        private var stringIsEmpty = false

        /// A value written where the text read so far ends; nil for one a block string cannot hold
        /// (ending in `"` or `\`, which would end the string early or escape its end).
        func written(_ value: Variable) -> String? {
            guard json.isInString else { return BodyTemplate.jsonText(value.typedValue) }
            guard depth == 1 else { return BodyTemplate.escaped(value.value) }
            switch place {
            case .code: return BodyTemplate.escaped(value.value)
            case .string: return BodyTemplate.escaped(BodyTemplate.escaped(value.value))
            case .blockString:
                if value.value.hasSuffix("\"") || value.value.hasSuffix("\\") { return nil }
                return BodyTemplate.escaped(value.value.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\""))
            case .comment: return BodyTemplate.escaped(value.value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " "))
            }
        }

        mutating func read(_ text: String) {
            for character in text.unicodeScalars {
                let wasInString = json.isInString
                json.read(character)
                if !wasInString {
                    if character == "{" || character == "[" { depth += 1 }
                    if character == "}" || character == "]" { depth -= 1 }
                    if json.isInString { (place, jsonEscape, quotesInCode) = (.code, nil, 0) }
                } else if json.isInString && depth == 1 {
                    readEscaped(character)
                }
            }
        }

        /// One character of the JSON string's text, decoded from its JSON escape.
        private mutating func readEscaped(_ character: Unicode.Scalar) {
            if var escape = jsonEscape {
                escape.append(character)
                if escape.first == "u" {
                    guard escape.count == 5 else { jsonEscape = escape; return }
                    jsonEscape = nil
                    readQuery(UInt32(String(String.UnicodeScalarView(escape.dropFirst())), radix: 16).flatMap(Unicode.Scalar.init) ?? "x")
                } else {
                    jsonEscape = nil
                    let decoded: [Unicode.Scalar: Unicode.Scalar] = ["n": "\n", "r": "\r", "t": "\t", "b": "x", "f": "x"]
                    readQuery(decoded[character] ?? character)
                }
            } else if character == "\\" {
                jsonEscape = []
            } else {
                readQuery(character)
            }
        }

        /// One character of the query's text, as GraphQL reads it.
        private mutating func readQuery(_ character: Unicode.Scalar) {
            let isLineEnd = character == "\n" || character == "\r"
            switch place {
            case .code:
                if quotesInCode == 2 {
                    quotesInCode = 0
                    if character == "\"" { (place, quotesInBlock, blockQuotesEscaped) = (.blockString, 0, false); return }
                }
                if character == "#" { place = .comment }
                if character == "\"" { (place, stringEscape, stringIsEmpty) = (.string, false, true) }
            case .string:
                if stringEscape {
                    stringEscape = false
                } else if character == "\\" {
                    stringEscape = true
                } else if character == "\"" || isLineEnd {
                    place = .code
                    quotesInCode = character == "\"" && stringIsEmpty ? 2 : 0
                }
                stringIsEmpty = false
            case .blockString:
                if character == "\"" {
                    quotesInBlock += 1
                    if quotesInBlock == 3 {
                        if !blockQuotesEscaped { place = .code }
                        (quotesInBlock, blockQuotesEscaped) = (0, false)
                    }
                } else {
                    (quotesInBlock, blockQuotesEscaped) = (0, character == "\\")
                }
            case .comment:
                if isLineEnd { place = .code }
            }
        }
    }
}
