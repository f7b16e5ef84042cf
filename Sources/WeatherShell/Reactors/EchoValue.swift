import Checks
import Targets

/// One field of a reactor's state as it is echoed: `name=value` in declaration order.
public enum EchoValue: Sendable, Equatable {
    case text(String)
    /// A number as its literal, the text the query, variable or literal had (`9007199254740993`,
    /// `1.10`): never through a Double, which keeps 15 to 17 digits.
    case number(String)
    case bool(Bool)
    case none
    /// A list or an object, written as compact JSON, not as a string holding it.
    case json(JSONValue)

    /// As the echo line and JSON write it: strings quoted, numbers bare (no trailing .0), `none` as null.
    var jsonText: String {
        switch self {
        case .text(let text): Self.quoted(text)
        case .number(let literal): Self.jsonNumber(literal)
        case .bool(let flag): flag ? "true" : "false"
        case .none: "null"
        case .json(let value): value.compactText
        }
    }

    /// The value as a variable or query would hold it.
    var plainText: String {
        switch self {
        case .text(let text): text
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .none: ""
        case .json(let value): value.compactText
        }
    }

    /// What kind of value it is, as an error names it (not the value, which may be a secret).
    var kindName: String {
        switch self {
        case .text: "text"
        case .number: "a number"
        case .bool: "a boolean"
        case .none: "null"
        case .json(.array): "a list"
        case .json: "an object"
        }
    }

    /// A measured number (a temperature, a count) as a field holds it.
    static func decimal(_ number: Double) -> EchoValue { .number(format(number)) }

    /// A number literal as JSON writes it: a JSON literal as it is (`1.10`, `-0.0`, `1e400`,
    /// every digit of `9007199254740993`); the language's other forms with the same digits made
    /// JSON: `007` is `7`, `+1` is `1`, `.5` is `0.5`, `5.` is `5`.
    static func jsonNumber(_ literal: String) -> String {
        var text = Substring(literal)
        var sign = ""
        if text.hasPrefix("+") { text = text.dropFirst() } else if text.hasPrefix("-") { sign = "-"; text = text.dropFirst() }
        let exponentStart = text.firstIndex(where: { $0 == "e" || $0 == "E" }) ?? text.endIndex
        let parts = text[..<exponentStart].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0].drop(while: { $0 == "0" })
        let fraction = parts.count > 1 && !parts[1].isEmpty ? "." + parts[1] : ""
        return sign + (integer.isEmpty ? "0" : integer) + fraction + text[exponentStart...]
    }

    static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }

    /// A value written in the language (`false`, `12`, `"text"`, a bare `[1,2]`) as an echo
    /// value, typed as `let` types it (``TypedValues/literal(_:quoted:)``).
    static func parse(_ text: String, quoted: Bool) -> EchoValue {
        EchoValue(TypedValues.literal(text, quoted: quoted))
    }
}

extension EchoValue {
    /// A JSON value as a state field holds it: numbers, booleans and null keep their types, lists
    /// and objects stay JSON.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .none
        case .bool(let flag): self = .bool(flag)
        case .number(let literal): self = .number(literal)
        case .string(let text): self = .text(text)
        case .array, .object: self = .json(value)
        }
    }
}

/// A state that can be echoed: its fields in declaration order.
public protocol EchoableState: Sendable {
    var echoFields: [(name: String, value: EchoValue)] { get }
}

/// How echo lines look: `set echo line|json|off`, and colour for changed fields.
struct EchoStyle: Sendable {
    var mode: ShellOptions.Echo
    var color: Bool
    /// At a terminal, a line longer than the screen is cut to its width with `…`.
    var cutToTerminal = false

    /// `NAME | a=1 b="x"`, changed fields in bold yellow at a terminal; or one JSON object. Secrets
    /// are masked by `mask` before the line is cut, so a cut never shows a secret's start.
    func render(reactor: String, fields: [(name: String, value: EchoValue)], previous: [(name: String, value: EchoValue)]?,
                mask: (String) -> String) -> String? {
        switch mode {
        case .off:
            return nil
        case .json:
            let members = fields.map { "\(EchoValue.quoted($0.name)):\($0.value.jsonText)" }.joined(separator: ",")
            return mask("{\(EchoValue.quoted(reactor)):{\(members)}}")
        case .line:
            let parts = fields.enumerated().map { index, field -> String in
                let text = "\(field.name)=\(field.value.jsonText)"
                let changed = previous.map { index < $0.count && $0[index].value != field.value } ?? false
                return color && changed ? "\u{1B}[1;33m\(text)\u{1B}[0m" : text
            }
            return cut(mask("\(reactor) | \(parts.joined(separator: " "))"))
        case .changes:
            // The first echo shows every field; later ones only what the reduce changed, and one that
            // changed nothing says so: with no line, an action that set a field to its value left no trace.
            let changed = fields.enumerated().filter { index, field in
                guard let previous else { return true }
                return index >= previous.count || previous[index].value != field.value
            }
            guard !changed.isEmpty else { return "\(reactor) | (no change)" }
            return cut(mask("\(reactor) | " + changed.map { "\($0.element.name)=\($0.element.value.jsonText)" }.joined(separator: " ")))
        }
    }

    /// The line cut to the terminal's width with `…`, when at a terminal and it is wider.
    private func cut(_ line: String) -> String {
        guard cutToTerminal, let columns = Pager.terminalSize()?.columns else { return line }
        return EchoStyle.cut(line, to: columns)
    }

    /// `line` cut to `columns` visible characters (colour sequences take none), the last one `…`.
    static func cut(_ line: String, to columns: Int) -> String {
        var visible = 0
        var inEscape = false
        var result = ""
        for character in line {
            if inEscape {
                result.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                result.append(character)
                continue
            }
            visible += TerminalColumns.width(of: character)
            if visible >= columns {
                return result + "…" + (line.contains("\u{1B}") ? "\u{1B}[0m" : "")
            }
            result.append(character)
        }
        return result
    }

}
