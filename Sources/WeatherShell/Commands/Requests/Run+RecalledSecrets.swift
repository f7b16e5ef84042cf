import Targets

extension Run {
    /// At the prompt, a request whose words hold `***` literally is most likely a line recalled
    /// from the line-editor history, which keeps secrets as `***`: it is sent as typed, with a note
    /// naming the words, so that a server's 401 is not a mystery.
    func noteRecalledPlaceholders(_ words: [Word]) {
        guard mode == .interactive else { return }
        let starred = words.filter { word in
            word.parts.contains { part in
                if case .literal(let text) = part.content { text.contains(Redaction.placeholder) } else { false }
            }
        }
        guard !starred.isEmpty else { return }
        // Named, not quoted: the rest of a word may hold a credential typed literally.
        let names = starred.map { word -> String in
            let text = word.literal ?? ""
            let name = text.prefix { !"=:@".contains($0) }
            return text.contains("://") || name.isEmpty || name.contains("/") || name.count == text.count ? "the URL" : "'\(name)'"
        }
        io.err("wsh: note: \(names.joined(separator: ", ")) sends *** as typed: the history keeps secrets as ***; "
               + "give the value again, or as a variable from env\n")
    }
}
