/// A parsed file, `-c` string or prompt entry.
public struct Program: Sendable {
    public var file: SourceFile
    public var statements: [Statement]
}

/// One statement with the span of its whole text.
public struct Statement: Sendable {
    public var kind: StatementKind
    public var span: SourceSpan
    /// The span of the command word, where "unknown command" carets point.
    public var commandSpan: SourceSpan
    /// `| COMMAND`: the statement's output goes to this shell command.
    public var pipe: PipeCommand?
}

/// What a statement does (LANGUAGE.md).
public enum StatementKind: Sendable {
    case assign(name: Word, value: ValueExpression)
    case unset([Word])
    case vars
    /// `set OPTION VALUE`; `set OPTION` shows one, `set` alone shows all.
    case set(option: Word?, values: [Word])
    case echo([Word])
    case print([ValueExpression])
    case source(Word)
    case help(Word?)
    case exit(Word?)
    case target(TargetDeclaration)
    case call(CallStatement)
    /// `get URL items...`, `request METHOD URL items...`: an ad-hoc request.
    case request(RequestStatement)
    /// `target NAME from last`: the last request kept as a target.
    case targetFromLast(name: Word)
    case expect(Expectation)
    case plugin(name: Word, settings: [Word])
    case reactor(ReactorDeclaration)
    case emit([FieldAssignment])
    /// `sleep DURATION`.
    case sleep(Word)
    /// `if EXPR { ... } else { ... }`.
    case conditional(Conditional)
    /// `for`, `repeat`, `until`.
    case loop(Loop)
    /// Any other command: `targets`, `show`, `weather`, a declared reactor's action, or an unknown name.
    case command(name: Word, arguments: [Word])
}

/// A value on the right of `let`, in `print`, `emit` and `expect`.
public enum ValueExpression: Sendable {
    case word(Word)
    case env(name: Word, fallback: Word?, span: SourceSpan)
    case query(Query)

    public var span: SourceSpan {
        switch self {
        case .word(let word): word.span
        case .env(_, _, let span): span
        case .query(let query): query.span
        }
    }
}

/// A query on the last response (LANGUAGE.md, "Queries on the last response").
public struct Query: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case path([PathStep])
        case status
        case header(String)
        /// Every value of a repeated header, as a list.
        case headers(String)
        case body
        /// The body undecoded: after any Content-Encoding is undone, before its charset is read.
        case bytes
        case time
        /// The final URL, after redirects.
        case url
        /// The URLs that answered with a redirect, in order.
        case redirects
        /// The HTTP version that answered: `HTTP/1.1`, `HTTP/2`.
        case version
        /// `cookie NAME` (its value) or `cookie NAME.ATTRIBUTE`, in the jar for the last URL.
        case cookie(name: String, attribute: String?)
    }
    public enum PathStep: Sendable, Equatable {
        case key(String)
        case index(Int)
        /// `[*]`: the rest of the path over every element of a list (or member of an object).
        case all
        /// `[a:b]`: the elements from a up to b (negative counts from the end), the rest of the path over each.
        case slice(Int?, Int?)
        /// `..name`: every value of `name` at any depth, the rest of the path over each.
        case descendants(String)
        /// `[? EXPR]`: the elements for which EXPR (its queries relative to the element) holds, the rest of the path over each.
        case filter(ElementFilter)
    }
    public var source: Source
    public var filters: [QueryFilter]
    public var span: SourceSpan
}

/// The condition of a `[? EXPR]` step: an expectation whose path queries start at the element.
public struct ElementFilter: Sendable, Equatable {
    public var condition: Expectation
    /// From `[?` to `]`.
    public var span: SourceSpan

    public static func == (left: ElementFilter, right: ElementFilter) -> Bool { left.span == right.span }
}

/// A filter after `|` (LANGUAGE.md, "Filters"), with its arguments.
public enum QueryFilter: Sendable, Equatable {
    case length, keys, values, first, last, nth(Int)
    case toInt, toFloat, toString
    case split(String), join(String), replace(String, String)
    case upper, lower, trim
    case urlEncode, urlDecode, base64Encode, base64Decode, htmlUnescape
    /// Hex digests and the hex of a string's UTF-8 bytes.
    case sha256, md5, hex
    /// `toDate [FORMAT]`: ISO 8601 by default, else strftime codes; gives the date in ISO 8601 (UTC).
    case toDate(String?)
    /// `format FORMAT`: a date in strftime codes.
    case format(String)
    case daysBeforeNow, daysAfterNow
    /// The first capture group of the first match, else the whole match.
    case regex(String)
    /// Every match of a pattern replaced; `$1` in the replacement is the first group.
    case replaceRegex(String, String)
    /// An RFC 9535 JSONPath query on the value (JSON text is parsed first).
    case jsonpath(String)

    /// Each filter's name and how many arguments it takes.
    public static let arities: [(name: String, arguments: Int)] = [
        ("length", 0), ("keys", 0), ("values", 0), ("first", 0), ("last", 0), ("nth", 1),
        ("toInt", 0), ("toFloat", 0), ("toString", 0), ("split", 1), ("join", 1), ("replace", 2), ("replaceRegex", 2),
        ("upper", 0), ("lower", 0), ("trim", 0), ("urlEncode", 0), ("urlDecode", 0),
        ("base64Encode", 0), ("base64Decode", 0), ("regex", 1), ("sha256", 0), ("md5", 0), ("hex", 0), ("htmlUnescape", 0),
        ("toDate", 0), ("format", 1), ("daysBeforeNow", 0), ("daysAfterNow", 0), ("jsonpath", 1),
    ]

    /// The filter `name` with `arguments` (as many as ``arities`` says); nil for an unknown name or a bad number.
    public init?(name: String, arguments: [String]) {
        switch (name, arguments.count) {
        case ("length", 0): self = .length
        case ("keys", 0): self = .keys
        case ("values", 0): self = .values
        case ("first", 0): self = .first
        case ("last", 0): self = .last
        case ("nth", 1): guard let n = Int(arguments[0]) else { return nil }; self = .nth(n)
        case ("toInt", 0): self = .toInt
        case ("toFloat", 0): self = .toFloat
        case ("toString", 0): self = .toString
        case ("split", 1): self = .split(arguments[0])
        case ("join", 1): self = .join(arguments[0])
        case ("replace", 2): self = .replace(arguments[0], arguments[1])
        case ("replaceRegex", 2): self = .replaceRegex(arguments[0], arguments[1])
        case ("jsonpath", 1): self = .jsonpath(arguments[0])
        case ("upper", 0): self = .upper
        case ("lower", 0): self = .lower
        case ("trim", 0): self = .trim
        case ("urlEncode", 0): self = .urlEncode
        case ("urlDecode", 0): self = .urlDecode
        case ("base64Encode", 0): self = .base64Encode
        case ("base64Decode", 0): self = .base64Decode
        case ("regex", 1): self = .regex(arguments[0])
        case ("htmlUnescape", 0): self = .htmlUnescape
        case ("sha256", 0): self = .sha256
        case ("md5", 0): self = .md5
        case ("hex", 0): self = .hex
        case ("toDate", 0): self = .toDate(nil)
        case ("toDate", 1): self = .toDate(arguments[0])
        case ("format", 1): self = .format(arguments[0])
        case ("daysBeforeNow", 0): self = .daysBeforeNow
        case ("daysAfterNow", 0): self = .daysAfterNow
        default: return nil
        }
    }

    /// The filter's name, for messages.
    public var name: String {
        switch self {
        case .length: "length"
        case .keys: "keys"
        case .values: "values"
        case .first: "first"
        case .last: "last"
        case .nth: "nth"
        case .toInt: "toInt"
        case .toFloat: "toFloat"
        case .toString: "toString"
        case .split: "split"
        case .join: "join"
        case .replace: "replace"
        case .replaceRegex: "replaceRegex"
        case .jsonpath: "jsonpath"
        case .upper: "upper"
        case .lower: "lower"
        case .trim: "trim"
        case .urlEncode: "urlEncode"
        case .urlDecode: "urlDecode"
        case .base64Encode: "base64Encode"
        case .base64Decode: "base64Decode"
        case .regex: "regex"
        case .htmlUnescape: "htmlUnescape"
        case .sha256: "sha256"
        case .md5: "md5"
        case .hex: "hex"
        case .toDate: "toDate"
        case .format: "format"
        case .daysBeforeNow: "daysBeforeNow"
        case .daysAfterNow: "daysAfterNow"
        }
    }
}

/// `target NAME { field args... }`: fields are kept as written and expanded at each call.
public struct TargetDeclaration: Sendable {
    public struct Field: Sendable {
        public var name: String
        public var nameSpan: SourceSpan
        public var arguments: [Word]
        public var span: SourceSpan
    }
    public var name: Word
    public var fields: [Field]
    public var file: SourceFile
    public var span: SourceSpan

    /// The fields a target block accepts.
    public static let fieldNames = ["doc", "base", "path", "method", "query", "header", "json", "form", "body",
                                    "multipart", "sample", "validate", "timeout", "retry", "follow", "next", "items"]
}

/// `call NAME args... [> FILE]`.
public struct CallStatement: Sendable {
    public var target: Word
    public var arguments: [Word]
    public var output: Word?
    /// `--stream` (`-S`): the body is printed as it arrives even at a terminal, where it would be pretty printed whole.
    public var stream = false
}

/// `get|post|put|patch|delete|head|options URL [ITEM...] [--form|--multipart] [> FILE]`, or
/// `request METHOD URL ...` for any method: a request with no declared target, HTTPie's items.
public struct RequestStatement: Sendable {
    /// How `name=value` and `name:=JSON` items are sent.
    public enum BodyStyle: Sendable, Equatable {
        /// A JSON object, unless a file item makes it multipart (HTTPie's default).
        case json
        /// `--form`: url-encoded, or multipart when a file item is present.
        case form
        /// `--multipart`: multipart form data.
        case multipart
    }
    /// The command word: `get`, ..., or `request`.
    public var command: Word
    /// The method word after `request`; nil for the method commands.
    public var method: Word?
    public var url: Word
    public var items: [Word]
    public var bodyStyle: BodyStyle
    public var output: Word?
    /// `--stream` (`-S`), as on `call`.
    public var stream = false

    /// The commands that send one method each, and `request`.
    public static let methodCommands = ["get", "post", "put", "patch", "delete", "head", "options"]
    public static let commands = methodCommands + ["request"]
}

/// `expect [not] VALUE [not] OP [VALUE]`.
public struct Expectation: Sendable {
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contains, startsWith, endsWith, matches, exists
        case isString, isNumber, isInteger, isFloat, isBool, isNull, isList, isObject, isEmpty, isDate, isIsoDate

        /// Whether the operator takes no value: `exists` and the type predicates.
        public var isUnary: Bool { self == .exists || rawValue.hasPrefix("is") }
    }
    public var negated: Bool
    public var subject: ValueExpression
    public var op: Operator
    public var expected: Word?
    public var span: SourceSpan
}

/// `reactor NAME { state ...; action NAME [PARAMS] { ... } catch { ... } }`.
public struct ReactorDeclaration: Sendable {
    public struct StateField: Sendable {
        public var name: Word
        public var initial: Word
    }
    public struct Action: Sendable {
        public var name: Word
        public var parameters: [Word]
        /// `unless FIELD`: the action does nothing while that state field is true.
        public var unlessField: Word?
        public var body: [Statement]
        public var catchBody: [Statement]?
    }
    public var name: Word
    public var state: [StateField]
    public var actions: [Action]
    public var file: SourceFile
    /// The whole declaration, from `reactor` to its closing `}`, for `save`.
    public var span: SourceSpan
}

/// `name = value` in `emit` and `state`.
public struct FieldAssignment: Sendable {
    public var name: Word
    public var value: ValueExpression
}
