import Targets

/// How a parameter declaration is written (LANGUAGE.md, "Targets"): `key=value`, `key:=JSON`,
/// `key@file` and `key=@file` (a multipart file), a bare `key` (required); and `Name:value` (a
/// header), `key?` (optional: sent only when a call gives it). A call's arguments are request
/// items (``RequestItem``).
enum ArgumentSyntax {
    case parameter(name: String, value: ParameterValue?)
    case optional(name: String)
    case header(Header)

    /// Classifies by the first `:=`, `=`, `:` or `@` in the text.
    ///
    /// - Parameters:
    ///   - allowFiles: `key@path` is a file (a multipart field).
    ///   - equalsAtIsFile: `key=@path` is a file too, as curl's `-F key=@path` (a multipart field
    ///     whose `@` was written outside quotes: see ``Word/writesFileAfterEquals``).
    init?(_ text: String, allowFiles: Bool = false, equalsAtIsFile: Bool = false) {
        guard let index = text.firstIndex(where: { $0 == "=" || $0 == ":" || (allowFiles && $0 == "@") }) else {
            guard Self.isKey(text) else { return nil }
            if text.count > 1, text.hasSuffix("?") {
                self = .optional(name: String(text.dropLast()))
                return
            }
            self = .parameter(name: text, value: nil)
            return
        }
        let key = String(text[..<index])
        let after = text.index(after: index)
        guard !key.isEmpty else { return nil }
        let rest = String(text[after...])
        switch text[index] {
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
