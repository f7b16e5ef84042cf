import Targets

/// One of HTTPie's request items, as an ad-hoc request (`get URL ITEM...`) reads it.
///
/// The separator is the first one in the text; where two start at the same place the longer
/// wins, as HTTPie reads them: `a:=1` is JSON, `a==1` a query item, `a=@f` a field from a file.
enum RequestItem: Equatable {
    /// `name==value`: a query item.
    case query(name: String, value: String)
    /// `name=value` (text) or `name:=JSON` (typed): a body field.
    case field(name: String, value: ParameterValue)
    /// `name=@path` (the file's text) or `name:=@path` (the file's JSON): a body field read from a file.
    case fieldFromFile(name: String, path: String, json: Bool)
    /// `Name:value`: a header; `Name:` sends it empty.
    case header(Header)
    /// `field@path`, `field@path;type=image/png`: a file part of a multipart body.
    case file(name: String, path: String, type: String?)
    /// `@path`: the raw body, the file's bytes.
    case body(path: String)

    /// Whether the item is a body field (`name=value`, `name:=JSON`, `name=@path`), which a call
    /// gives to a parameter of its name.
    var isField: Bool {
        switch self {
        case .field, .fieldFromFile: true
        case .query, .header, .file, .body: false
        }
    }

    private static let separators = ["==", ":=@", ":=", "=@", "=", ":", "@"]

    /// The item `text` is, or nil when it has no separator (or no name before it).
    init?(_ text: String) {
        if text.hasPrefix("@") {
            guard text.count > 1 else { return nil }
            self = .body(path: String(text.dropFirst()))
            return
        }
        var found: (at: String.Index, separator: String)?
        var index = text.startIndex
        search: while index < text.endIndex {
            for separator in Self.separators where text[index...].hasPrefix(separator) {
                found = (index, separator)
                break search
            }
            index = text.index(after: index)
        }
        guard let (at, separator) = found, at != text.startIndex else { return nil }
        let name = String(text[..<at])
        let value = String(text[text.index(at, offsetBy: separator.count)...])
        switch separator {
        case "==": self = .query(name: name, value: value)
        case "=": self = .field(name: name, value: .text(value))
        case ":=": self = .field(name: name, value: .json(value))
        case "=@": self = .fieldFromFile(name: name, path: value, json: false)
        case ":=@": self = .fieldFromFile(name: name, path: value, json: true)
        case ":": self = .header(Header(name: name, value: value))
        default:
            guard !value.isEmpty else { return nil }
            // `;type=` ends the path when it is the last thing, as curl's -F reads it.
            let file = FileReference(value)
            self = .file(name: name, path: file.path, type: file.contentType)
        }
    }
}
