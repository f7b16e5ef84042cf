import Targets

extension Run {
    /// The value after an expectation's operator, typed, and its text (for `contains`,
    /// `startsWith`, `matches`). A path into a variable (`$first.id`, `$ys[0]`) is read as the
    /// path, as on the left of the operator: as text it was `{"id":1}.id`, so `expect .id !=
    /// $first.id` always held.
    func comparedValue(of word: Word) throws -> (value: JSONValue, text: String) {
        if word.loneVariable(followedByPath: true) != nil, let query = try QueryParser(file: currentFile).query([word]) {
            let (value, missing) = try lookUp(query, unmasked: true)
            guard let value else {
                throw failure("'\(currentFile.text(word.span.start..<word.span.end).shortened())' found nothing to compare with", at: word.span,
                              notes: missing.isEmpty ? [] : [missing])
            }
            return (value, value.plainText)
        }
        return (try typedValue(of: word), try expand(word).text)
    }
}
