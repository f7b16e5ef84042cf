import Checks

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
    /// `env NAME [or DEFAULT] [public]`: a secret unless `public` says it is not.
    case env(name: Word, fallback: Word?, isPublic: Bool, span: SourceSpan)
    case query(Query)

    public var span: SourceSpan {
        switch self {
        case .word(let word): word.span
        case .env(_, _, _, let span): span
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
        /// The body as it came, before any Content-Encoding is undone (Hurl's `rawbytes`).
        case rawBytes
        case time
        /// The final URL, after redirects.
        case url
        /// The URLs that answered with a redirect, in order.
        case redirects
        /// The redirects as objects: `{"url": ..., "status": 302, "location": ...}`, in order.
        case hops
        /// The HTTP version that answered: `HTTP/1.1`, `HTTP/2`.
        case version
        /// `cookie NAME` (its value) or `cookie NAME.ATTRIBUTE`, in the jar for the last URL.
        case cookie(name: String, attribute: String?)
        /// `$.a.b`, `$[0]`: an RFC 9535 JSONPath query on the body, as Hurl and Postman write it.
        case jsonPath(String)
        /// `$name | FILTER...`, `"2026-11-25" | toDate`: a value the statement writes (a variable, a
        /// literal), filtered.
        case value(Word)
        /// `$name.key[0]`: a path into a variable's object or list (a JSON text of one held as a
        /// string is read as JSON), as jq reads `$name.key`; into anything else, `word` as text.
        case variablePath(name: String, steps: [PathStep], word: Word)
    }
    /// A path's step that a variable gives when the query runs (`.items[$i]`).
    public struct PathVariable: Sendable, Equatable {
        /// The step's place in the path.
        public var step: Int
        /// The variable's name.
        public var name: String
    }
    /// A filter whose arguments hold variables (`| split $sep`): ``filters`` has it at `index`
    /// with stand-in arguments, and it is made again from these words when the query runs.
    public struct FilterTemplate: Sendable, Equatable {
        /// The filter's place in ``filters``.
        public var index: Int
        /// The filter's name.
        public var name: String
        /// Its arguments as written.
        public var arguments: [Word]
        /// Where the filter and its arguments are, for errors.
        public var span: SourceSpan
    }
    /// A step of a path; `[? EXPR]` holds the shell's expectation.
    public typealias PathStep = QueryStep<ElementFilter>
    public var source: Source
    public var filters: [QueryFilter]
    public var filterTemplates: [FilterTemplate] = []
    /// The steps of a path that a variable gives when the query runs: a number an index, else a key.
    public var pathVariables: [PathVariable] = []
    public var span: SourceSpan

    /// Whether the query reads what outputs show masked: a URL, a cookie.
    public var readsMaskedValues: Bool {
        switch source {
        case .url, .redirects, .hops, .cookie: true
        default: false
        }
    }

    /// Whether the query gives a value of the answer's JSON (a path, a JSONPath, `$name.key`,
    /// `hops`, `$name | first`), which a filter at most picks from (`first last nth keys values
    /// jsonpath`), not text: a string it gives never equals the JSON text of a list or object
    /// (`== '{"a":1}'`), which `body`, `header NAME` or `| toString` are compared with as text.
    public var givesJSONValue: Bool {
        let picks = filters.allSatisfy { filter in
            switch filter {
            case .first, .last, .nth, .keys, .values, .jsonpath: true
            default: false
            }
        }
        switch source {
        case .path, .jsonPath, .variablePath, .hops, .headers, .redirects: return picks
        case .value(let word): return word.loneVariable != nil && picks
        case .status, .header, .body, .bytes, .rawBytes, .time, .url, .version, .cookie: return false
        }
    }

    /// Whether the query gives a list of the values it reached (a node list), not one value:
    /// `[*]`, a slice, `..name` or `[? ]` in a path, `headers NAME`, `redirects`, a JSONPath that
    /// is not singular, `xpath`. An empty node list reached nothing, so it does not exist.
    public var yieldsNodeList: Bool {
        if let last = filters.last {
            switch last {
            case .jsonpath(let expression): return !((try? JSONPath(expression))?.isSingular ?? true)
            case .xpath: return true
            default: return false
            }
        }
        switch source {
        case .path(let steps), .variablePath(_, let steps, _):
            return steps.contains { step in
                switch step {
                case .all, .slice, .descendants, .filter: true
                case .key, .index: false
                }
            }
        case .headers, .redirects, .hops: return true
        case .jsonPath(let expression): return !((try? JSONPath(expression))?.isSingular ?? true)
        case .status, .header, .body, .bytes, .rawBytes, .time, .url, .version, .cookie, .value: return false
        }
    }
}

extension Query {
    /// Whether the values reached come from `[? ]` filters alone (`.users[? .id == 1].name`), not
    /// from `[*]`, a slice or `..`: a query written, most likely, to pick one value.
    public var picksByFilter: Bool {
        readsAs(\.picksByFilter) { steps in
            steps.contains { if case .filter = $0 { true } else { false } }
                && steps.allSatisfy { switch $0 { case .key, .index, .filter: true; case .all, .slice, .descendants: false } }
        }
    }

    /// Whether the query ends on a key or an index (`.users[? .id == 1].tags`): it reads a value of
    /// what it reached, rather than making a list (`[*]`, `[? ]`, a slice, `..name`).
    public var endsOnAKeyOrIndex: Bool {
        readsAs(\.endsOnANameOrIndex) { steps in
            switch steps.last {
            case .key?, .index?: true
            default: false
            }
        }
    }

    /// What `jsonPath` says of the JSONPath the query reads with (`$.…`, or a last `| jsonpath
    /// "$.…"`, which picks as `$.…` does), or `path` of its path's steps; false for any other.
    private func readsAs(_ jsonPath: (JSONPath) -> Bool, path: ([PathStep]) -> Bool) -> Bool {
        if let last = filters.last {
            guard case .jsonpath(let expression) = last else { return false }
            return (try? JSONPath(expression)).map(jsonPath) ?? false
        }
        switch source {
        case .path(let steps), .variablePath(_, let steps, _): return path(steps)
        case .jsonPath(let expression): return (try? JSONPath(expression)).map(jsonPath) ?? false
        default: return false
        }
    }
}

/// The condition of a `[? EXPR]` step: an expectation whose path queries start at the element.
public struct ElementFilter: Sendable, Equatable {
    public var condition: Expectation
    /// From `[?` to `]`.
    public var span: SourceSpan

    public static func == (left: ElementFilter, right: ElementFilter) -> Bool { left.span == right.span }
}

/// `target NAME { field args... }`: fields are kept as written and expanded at each call.
public struct TargetDeclaration: Sendable {
    public struct Field: Sendable {
        public var name: String
        public var nameSpan: SourceSpan
        public var arguments: [Word]
        public var span: SourceSpan
        /// `json?`, `form?` or `multipart?` (named without the `?`): the body is sent only when a call gives one of its fields.
        public var isOptionalBody = false
    }
    public var name: Word
    public var fields: [Field]
    public var file: SourceFile
    public var span: SourceSpan

    /// The fields a target block accepts.
    public static let fieldNames = ["doc", "base", "path", "method", "query", "header", "json", "form", "body",
                                    "multipart", "sample", "validate", "timeout", "retry", "follow", "next", "items", "style"]
    /// Body fields written with `?`: sent only when a call gives one of their fields.
    public static let optionalBodyFields = ["json?", "form?", "multipart?"]
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
    /// HTTPie's flags: `-a`, `-v`, `--offline`, ...
    public var flags = RequestFlags()

    /// The commands that send one method each, and `request`.
    public static let methodCommands = ["get", "post", "put", "patch", "delete", "head", "options"]
    public static let commands = methodCommands + ["request"]
}

/// `expect [not] VALUE [not] OP [VALUE]`.
public struct Expectation: Sendable {
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contains, includes, startsWith, endsWith, matches, exists
        case isString, isNumber, isInteger, isFloat, isBool, isNull, isList, isObject, isEmpty, isDate, isIsoDate
        case isCollection, isUuid

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
