import Targets

/// How a call argument or a parameter declaration is written (LANGUAGE.md, "Targets" and
/// "Calling a target"): `key=value`, `key:=JSON`, `Name:value` (a header), `key@file` (a multipart
/// file), a bare `key` (required) and, in a call, `name==value` (a query item) and `@file` (the body).
enum ArgumentSyntax {
    case parameter(name: String, value: ParameterValue?)
    case header(Header)
    /// `name==value`: a query item added to the target's.
    case queryItem(name: String, value: String)
    /// `@path`: the body, in place of the target's.
    case body(path: String)

    /// Classifies by the first `:=`, `==`, `=`, `:` or `@` in the text.
    ///
    /// - Parameters:
    ///   - allowFiles: `key@path` is a file (a multipart field, or any call argument).
    ///   - equalsAtIsFile: `key=@path` is a file too, as curl's `-F key=@path` (a multipart field
    ///     whose `@` was written outside quotes: see ``Word/writesFileAfterEquals``).
    ///   - callItems: `name==value` and `@path` are read (a call's arguments, not a declaration's).
    init?(_ text: String, allowFiles: Bool = false, equalsAtIsFile: Bool = false, callItems: Bool = false) {
        if callItems, text.hasPrefix("@") {
            guard text.count > 1 else { return nil }
            self = .body(path: String(text.dropFirst()))
            return
        }
        guard let index = text.firstIndex(where: { $0 == "=" || $0 == ":" || (allowFiles && $0 == "@") }) else {
            guard Self.isKey(text) else { return nil }
            self = .parameter(name: text, value: nil)
            return
        }
        let key = String(text[..<index])
        let after = text.index(after: index)
        guard !key.isEmpty else { return nil }
        let rest = String(text[after...])
        switch text[index] {
        case "=" where callItems && rest.hasPrefix("="):
            self = .queryItem(name: key, value: String(rest.dropFirst()))
        case "=" where equalsAtIsFile && rest.count > 1 && rest.hasPrefix("@"):
            self = .parameter(name: key, value: .file(String(rest.dropFirst())))
        case "=":
            self = .parameter(name: key, value: .text(rest))
        case "@":
            self = .parameter(name: key, value: .file(rest))
        default:
            if rest.hasPrefix("=") {
                self = .parameter(name: key, value: .json(String(rest.dropFirst())))
            } else {
                self = .header(Header(name: key, value: rest))
            }
        }
    }

    static func isKey(_ text: String) -> Bool {
        !text.isEmpty && !text.contains(where: { $0 == " " || $0 == "\t" })
    }
}

extension Word {
    /// Whether the word writes `key=@...` with the `=@` outside quotes: curl's `-F key=@path`, a
    /// file. `key="@text"` and `'key=@text'` are the text, as curl's `--form-string` sends it.
    var writesFileAfterEquals: Bool {
        for part in parts {
            guard case .literal(let text) = part.content, let equals = text.firstIndex(of: "=") else { continue }
            return !part.quoted && text[text.index(after: equals)...].hasPrefix("@")
        }
        return false
    }
}
