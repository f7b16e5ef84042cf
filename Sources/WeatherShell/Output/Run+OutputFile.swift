import Foundation

extension Run {
    /// `> FILE` at the end of a command's words (`export http user > api.http`), taken off
    /// `words`, the path resolved as `source` resolves one; nil when there is none.
    func takeOutputFile(_ words: inout [Word], usage: String) throws -> String? {
        guard let arrow = words.firstIndex(where: { $0.bare == ">" }) else { return nil }
        guard arrow == words.count - 2 else { throw failure(usage, at: words[arrow].span) }
        let path = resolvePath(try expand(words[arrow + 1]).text)
        words.removeLast(2)
        return path
    }

    /// `text` written to `path` (replacing the file), or on stdout when there is none.
    func writeOutput(_ text: String, to path: String?, at span: SourceSpan?) throws {
        guard let path else { return io.out(text) }
        if let reason = BodyFile.write(Data(text.utf8), to: path) {
            throw failure("cannot write '\(Self.displayPath(path))': \(reason)", at: span)
        }
    }
}
