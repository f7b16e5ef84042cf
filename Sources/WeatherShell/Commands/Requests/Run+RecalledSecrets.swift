import Targets

extension Run {
    /// At the prompt, a statement whose words hold `***` literally is most likely a line recalled
    /// from the line-editor history, which keeps secrets as `***`: a request is sent as typed, a
    /// declaration (`target`, `let`, `plugin`, `set`) `holding` it keeps it, with a note naming the
    /// words (or `named`), so that a server's 401 is not a mystery.
    func noteRecalledPlaceholders(_ words: [Word], holding: Bool = false, named given: String? = nil) {
        guard mode == .interactive else { return }
        let starred = words.filter { word in
            word.parts.contains { part in
                if case .literal(let text) = part.content { text.contains(Redaction.placeholder) } else { false }
            }
        }
        guard !starred.isEmpty else { return }
        // Named, not quoted: the rest of a word may hold a credential typed literally.
        var names: [String] = []
        for word in starred {
            let text = word.literal ?? ""
            let name = text.prefix { !"=:@".contains($0) }
            let named = if let given { "'\(given)'" }
                else if text.contains("://") || name.contains("/") || (!holding && (name.isEmpty || name.count == text.count)) { "the URL" }
                else if name.isEmpty || name.count == text.count { "a value" }
                else { "'\(name)'" }
            if !names.contains(named) { names.append(named) }
        }
        io.err("wsh: note: \(names.joined(separator: ", ")) \(holding ? "holds" : "sends") *** as typed: the history keeps secrets as ***; "
               + "give the value again, or as a variable from env\n")
    }
}
