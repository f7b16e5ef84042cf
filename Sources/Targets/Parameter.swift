/// A parameter value given in a declaration default or a call argument.
public enum ParameterValue: Sendable, Equatable {
    /// `key=value`: the text as given.
    case text(String)
    /// `key:=JSON`: raw JSON text exactly as typed; validated when it is encoded into a JSON body.
    case json(String)
    /// `f@path` in a multipart body: an absolute file path, read when the call is bound, with
    /// curl's `;type=MEDIA/TYPE` after it when given (see ``FileReference``).
    case file(String)

    /// The value as text, for the places that only carry text (path, query, form): JSON is sent as
    /// typed and a file as its path (a call that gives a file for such a place is refused, see ``CallArguments``).
    public var text: String {
        switch self {
        case .text(let text), .json(let text), .file(let text): text
        }
    }

    /// Whether the value names a file (`f@path`).
    public var isFile: Bool {
        if case .file = self { true } else { false }
    }
}

/// One declared parameter of a target: a `{name}` path segment or a key of its query or body.
public struct Parameter: Sendable, Equatable {
    /// The parameter's name, as written in the declaration and in a call.
    public var name: String
    /// The value used when a call does not give one; `nil` makes the parameter required, unless it is optional.
    public var defaultValue: ParameterValue?
    /// `key?`: sent only when a call gives it (an OpenAPI parameter that is neither required nor has a default).
    public var isOptional: Bool
    /// How a list or object value is written in the query or a form (`style NAME=STYLE`); `nil`
    /// sends a list as the key repeated and anything else as typed.
    public var style: ParameterStyle? = nil

    /// Declares a parameter; leave out `defaultValue` for a required one, or set `isOptional` for
    /// one that is sent only when a call gives it.
    public init(name: String, defaultValue: ParameterValue? = nil, isOptional: Bool = false) {
        self.name = name
        self.defaultValue = defaultValue
        self.isOptional = isOptional
    }

    /// Whether a call must give it: no default and not optional.
    public var isRequired: Bool { defaultValue == nil && !isOptional }
}

/// How a query key or form field writes a `:=` list or object (`style NAME=STYLE`; OpenAPI's
/// parameter styles). A value given as text is sent as it is, whatever the style.
public enum ParameterStyle: String, Sendable, Equatable, CaseIterable {
    /// `ids=1,2,3`, an object `color=R,100,G,200` (OpenAPI's `form` with `explode: false`).
    case comma
    /// `ids=1|2|3` (`pipeDelimited`).
    case pipes
    /// `ids=1 2 3`, sent as `ids=1%202%203` (`spaceDelimited`).
    case spaces
    /// `filter[name]=Ana&filter[age]=3`; a nested object `a[b][c]=1`, a list `expand[]=x` (`deepObject`,
    /// and the brackets Stripe's and Rails's forms read).
    case deepObject
    /// The value as compact JSON text: `filter={"name":"Ana"}` percent-encoded (a parameter with `content: application/json`).
    case json
}

/// One HTTP header field.
public struct Header: Sendable, Equatable {
    /// The field name; compared without regard to case.
    public var name: String
    /// The field value, as sent.
    public var value: String

    /// Makes a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// A field of an answer's head, its value without the blanks around it: RFC 9110 (5.5) makes
    /// them no part of the value, and the parser keeps those after it (`X-A: padded  `).
    init(received name: String, _ value: String) {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        self.init(name: name, value: String(value.drop(while: blank).reversed().drop(while: blank).reversed()))
    }
}
