/// A word as the user wrote it, kept so that `save` can write a setting by the variables it
/// refers to (`$token`) rather than by the secret it expands to.
struct WrittenWord {
    /// The word's text in its file: `$token`, `"$user:$pass"`.
    var text: String
    var word: Word
}

extension Run {
    /// `word` as it is written in the running file.
    func written(_ word: Word) -> WrittenWord {
        WrittenWord(text: currentFile.text(word.span.start..<word.span.end), word: word)
    }

    /// The written text of a word for `save`, when it refers to variables, all of them among
    /// `saved` (the ones the saved file sets), and still expands to `value`; else nil.
    func savedReference(_ written: WrittenWord?, expandingTo value: String, saved: Set<String>,
                        as taken: (String) -> String = { $0 }) -> String? {
        guard let written, !written.word.variableNames.isEmpty, written.word.variableNames.allSatisfy(saved.contains),
              let expanded = try? expand(written.word).text, taken(expanded) == value else { return nil }
        return written.text
    }
}
