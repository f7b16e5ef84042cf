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

    /// `state NAME = VALUE, ...` and `emit NAME = VALUE, ...`, each field read as the parser reads
    /// it (``Parser/fieldGroups(_:)``: the comma that separates fields is not part of the value, so
    /// `token = "", n = 0` holds the empty string and `token = $t, n = 0` the variable alone):
    /// the value of a field named like a credential, unless it is a query (`.token`), `env NAME`,
    /// variables only or empty, as `let token = ...` is judged; in any other field's value, what a
    /// `let` of that value hides (a JSON text's members named like secrets, a URL's password).
    /// `fields` are the words after `state` or `emit`, or a whole statement that starts `NAME =`
    /// or `, NAME =` (a field continued on a line of its own, which does not parse but is remembered).
    static func fieldCredentials(_ fields: [Word], bytes: [UInt8]) -> [Replacement] {
        var replacements: [Replacement] = []
        for group in Parser.fieldGroups(fields) {
            guard group.count >= 3, group[1].bare == "=", let name = group[0].bare else {
                // A mistyped field (`api_key="k"`, no blanks around `=`) read as an item, as `let`'s is.
                replacements += group.flatMap { itemCredentials($0, bytes: bytes) }
                continue
            }
            let value = group.dropFirst(2)
            guard Redaction.isCredentialName(name) else {
                replacements += value.flatMap { itemCredentials($0, bytes: bytes) }
                continue
            }
            if value.first?.bare?.hasPrefix(".") == true || value.contains(where: { $0.bare == "env" }) { continue }
            replacements += value.flatMap(hiddenWhole)
        }
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
