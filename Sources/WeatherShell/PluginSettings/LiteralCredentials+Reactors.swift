import Targets

/// The reactors' credentials typed as text: a state field's first value or an emitted value named
/// like a credential (`state api_key = "k"`, `emit token = "t"`), and an action's argument given for
/// a parameter named like one (`sk go sk-live-1` for `action go token`).
extension LiteralCredentials {
    /// For each reactor, its actions' argument positions whose parameters are named like credentials
    /// (``Redaction/isCredentialName(_:)``): `["sk": ["go": [0]]]`.
    typealias ActionCredentials = [String: [String: [Int]]]

    /// The positions of the parameters named like credentials among `parameters`.
    static func credentialPositions(_ parameters: [String]) -> [Int] {
        parameters.indices.filter { Redaction.isCredentialName(parameters[$0]) }
    }

    /// `state NAME = VALUE, ...` and `emit NAME = VALUE, ...`: the value of each field named like a
    /// credential, unless it is a query (`.token`), `env NAME` or variables only. A comma that ends
    /// the value stays, so the line still reads as the fields it declared.
    static func fieldCredentials(_ statement: [Word], bytes: [UInt8]) -> [Replacement] {
        var replacements: [Replacement] = []
        var group: [Word] = []
        func close() {
            defer { group = [] }
            guard group.count >= 3, group[1].bare == "=", let name = group[0].bare, Redaction.isCredentialName(name) else { return }
            let value = group.dropFirst(2)
            if value.first?.bare?.hasPrefix(".") == true || value.contains(where: { $0.bare == "env" }) { return }
            for word in value {
                guard let hidden = hiddenWhole(word).first else { continue }
                let endsInComma = hidden.range.upperBound > hidden.range.lowerBound + 1 && bytes[hidden.range.upperBound - 1] == UInt8(ascii: ",")
                    && word.parts.last.map { !$0.quoted } == true
                replacements.append((hidden.range.lowerBound..<(hidden.range.upperBound - (endsInComma ? 1 : 0)), "***"))
            }
        }
        for word in statement.dropFirst() {
            group.append(word)
            if let last = word.parts.last, !last.quoted, case .literal(let text) = last.content, text.hasSuffix(",") { close() }
        }
        close()
        return replacements
    }

    /// `REACTOR ACTION ARGS...` for an action whose parameters are named like credentials: those arguments.
    static func argumentCredentials(_ statement: [Word], actions: ActionCredentials) -> [Replacement] {
        guard statement.count > 2, let reactor = statement[0].bare, let action = statement[1].bare,
              let positions = actions[reactor]?[action] else { return [] }
        return positions.filter { $0 + 2 < statement.count }.flatMap { hiddenWhole(statement[$0 + 2]) }
    }

    /// The actions declared in the text itself (`reactor sk { action go token { ... } }; sk go t`), as
    /// their statements come: `reactor NAME`, then `action NAME PARAMS... [unless FIELD]`.
    static func declaredActions(in statements: [[Word]], adding known: ActionCredentials) -> ActionCredentials {
        var actions = known
        var reactor: String?
        for statement in statements where !statement.isEmpty {
            if statement.count == 2, statement[0].bare == "reactor" {
                reactor = statement[1].bare
                if let reactor { actions[reactor] = [:] }
            } else if let reactor, statement.count >= 2, statement[0].bare == "action", let name = statement[1].bare {
                let parameters = statement.dropFirst(2).prefix { $0.bare != "unless" }.map { $0.bare ?? "" }
                actions[reactor, default: [:]][name] = credentialPositions(parameters)
            }
        }
        return actions
    }
}
