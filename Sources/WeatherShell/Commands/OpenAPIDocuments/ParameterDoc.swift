import OpenAPI

/// A parameter as completion shows it: its description and the values its schema allows.
struct ParameterDoc: Sendable {
    var description: String
    var enumValues: [String]

    init(_ info: ParameterInfo) {
        description = info.description
        enumValues = info.enumValues
    }
}

extension CompletionSnapshot {
    /// Candidates as Tab lists them: `call NAME` parameters one a line with their descriptions
    /// when the target came from an OpenAPI document; otherwise in columns for a terminal `width`
    /// wide, files by their names in the directory they share (``Completion/shownNames(_:directory:)``).
    public func listing(_ candidates: [String], for before: String, width: Int = 80) -> String {
        let previous = Completion.previousWords(before)
        guard previous.first == "call", previous.count >= 2, let docs = parameterDocs[previous[1]],
              candidates.contains(where: { docs[String($0.dropLast())] != nil }) else {
            return Completion.columns(Completion.shownNames(candidates, directory: directory), width: width)
        }
        let width = candidates.map(\.count).max() ?? 0
        return candidates.map { candidate in
            let description = docs[String(candidate.dropLast())].map { Self.firstLine($0.description) } ?? ""
            return description.isEmpty ? candidate + "\n" : candidate.padding(width) + "  " + description + "\n"
        }.joined()
    }

    private static func firstLine(_ text: String) -> String {
        let line = String(text.split(separator: "\n").first ?? "")
        return line.count > 70 ? String(line.prefix(69)) + "…" : line
    }
}
