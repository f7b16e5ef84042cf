import Foundation
import Targets

extension Run {
    /// A body field of an ad-hoc request and the word that gave it.
    struct FieldItem {
        var name: String
        var value: ParameterValue
        var word: Word
    }

    /// HTTPie 3's nested JSON (`address[city]=Seoul`, `tags[]=a`, `[]:=1`) when any field's name
    /// is a path: the fields built into one body, as top-level fields holding JSON (so `target
    /// NAME from last` keeps them), or a top-level array as the raw body. Nil when no name is a
    /// path: the fields go as they are.
    func nestedJSONBody(_ items: [FieldItem]) throws -> (fields: [Parameter], array: RawBody?)? {
        guard items.contains(where: { NestedJSONPath.isPath($0.name) }) else { return nil }
        var body = NestedJSONBody()
        for item in items {
            let path: NestedJSONPath
            do {
                path = try NestedJSONPath(item.name)
            } catch {
                throw failure("'\(item.name.shortened())' is not a JSON path: \(error.message)", at: span(of: error.range, in: item),
                              notes: Self.nestedPathNotes)
            }
            let value: JSONValue
            switch item.value {
            case .text(let text), .file(let text): value = .string(text)
            case .json(let text):
                do {
                    value = try JSONValue.parse(text)
                } catch {
                    throw failure("'\(item.name.shortened()):=' is not valid JSON: \(redaction.mask(error.description(in: text, mask: redaction.mask)))",
                                  at: item.word.span,
                                  notes: ["a JSON value: name:=42, name:=true, name:='[1, 2]'; text is name=value"])
                }
            }
            do {
                try body.insert(value, at: path)
            } catch {
                throw failure(error.message, at: span(of: error.range, in: item), notes: Self.nestedPathNotes)
            }
        }
        switch body.root {
        case .array(let elements)?:
            return ([], RawBody(data: Data(JSONValue.array(elements).compactText.utf8), contentType: "application/json"))
        case .object(let members)?:
            return (members.map { Parameter(name: $0.key, defaultValue: .json($0.value.compactText)) }, nil)
        default:
            return nil
        }
    }

    private static let nestedPathNotes = ["a path is name[key], name[0] or name[] (append), nested as a[b][0]; [] alone is a top-level array; "
                                          + "\\[ is a bracket in a name"]

    /// The source of characters `range` of an item's name, where the word holds the name as
    /// written (one literal part); else the whole word.
    private func span(of range: Range<Int>, in item: FieldItem) -> SourceSpan {
        guard item.word.parts.count == 1, let part = item.word.parts.first, case .literal(let text) = part.content,
              text.hasPrefix(item.name) else { return item.word.span }
        let start = part.span.start + item.name.prefix(range.lowerBound).utf8.count
        let end = part.span.start + item.name.prefix(range.upperBound).utf8.count
        return SourceSpan(start: start, end: max(end, start + 1))
    }
}
