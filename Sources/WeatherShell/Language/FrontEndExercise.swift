/// Runs the language front end over any text and checks what must hold for every input.
///
/// The fuzzer (`scripts/fuzz`, `Fuzz/FuzzEntry.swift`) calls this on each input it makes, and
/// `FuzzCorpusTests` on each file of `Fuzz/corpus`, so both run the same code. It exercises
/// `Lexer.needsMoreInput`, the lexer, the parser, the query parser and diagnostic rendering.
/// A broken rule comes back as a message; a crash or hang is the other kind of finding.
enum FrontEndExercise {
    /// The rules `text` breaks; empty when all hold.
    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        _ = Lexer.needsMoreInput(text)
        let file = SourceFile(name: "fuzz.wsh", directory: "/", text: text)
        var lexer = Lexer(file: file)
        var lexError: Diagnostic?
        do {
            let tokens = try lexer.tokenize()
            problems += tokenProblems(tokens, file: file)
            problems += queryProblems(tokens, file: file)
        } catch {
            lexError = error
            problems += renderProblems(error, file: file)
        }
        do {
            let program = try Parser.parse(file)
            if let lexError { problems.append("the parser accepted text the lexer refused: \(lexError.message)") }
            for statement in program.statements where !contains(statement.span, file) || !contains(statement.commandSpan, file) {
                problems.append("a statement's span \(statement.span) is outside the text")
            }
        } catch {
            if let lexError, lexError.message != error.message {
                problems.append("the parser reported '\(error.message)', the lexer '\(lexError.message)'")
            }
            problems += renderProblems(error, file: file)
        }
        return problems
    }

    /// The rules broken by the lexer's tokens: one `.endOfInput` at the end, spans in order and inside the text.
    private static func tokenProblems(_ tokens: [Token], file: SourceFile) -> [String] {
        var problems: [String] = []
        guard case .endOfInput = tokens.last else { return ["the tokens do not end with endOfInput"] }
        var previousEnd = 0
        for token in tokens {
            let span = token.span
            if !contains(span, file) || span.start < previousEnd {
                problems.append("token span \(span) is out of order or outside the text of \(file.bytes.count) bytes")
            }
            previousEnd = span.end
            if case .word(let word) = token {
                for part in word.parts where part.span.start < word.span.start || part.span.end > word.span.end {
                    problems.append("a word part's span \(part.span) is outside its word's span \(word.span)")
                }
            }
        }
        // A caret under the first and the last word and at the end of the text: any span must render.
        // (Few, as rendering costs time in proportion to the line.)
        let words = tokens.compactMap { if case .word(let word) = $0 { word } else { nil } }
        for span in [words.first?.span, words.last?.span, file.endSpan].compactMap({ $0 }) {
            problems += renderProblems(Diagnostic(.parse, "probe", file: file, span: span), file: file, masked: false)
        }
        return problems
    }

    /// Runs the query parser on the words of each statement, as `let`, `print` and `expect` do.
    private static func queryProblems(_ tokens: [Token], file: SourceFile) -> [String] {
        var problems: [String] = []
        let parser = QueryParser(file: file)
        var words: [Word] = []
        for token in tokens {
            if case .word(let word) = token {
                words.append(word)
                continue
            }
            if !words.isEmpty {
                do {
                    _ = try parser.query(words)
                    _ = try parser.prefixQuery(words.dropFirst())
                } catch {
                    problems += renderProblems(error, file: file)
                }
            }
            words.removeAll()
        }
        return problems
    }

    /// The rules a rendered diagnostic breaks: it names the file and the error, with a caret under its span.
    private static func renderProblems(_ diagnostic: Diagnostic, file: SourceFile, masked: Bool = true) -> [String] {
        var problems: [String] = []
        if let span = diagnostic.span, !contains(span, file) {
            problems.append("diagnostic '\(diagnostic.message)' has span \(span) outside the text")
        }
        let text = diagnostic.rendered()
        if masked, diagnostic.rendered(mask: { String(repeating: "*", count: $0.count) }).isEmpty {
            problems.append("diagnostic '\(diagnostic.message)' rendered nothing with a mask")
        }
        if !text.hasPrefix("\(file.name):") || !text.contains("error: ") || !text.contains("^") {
            problems.append("diagnostic '\(diagnostic.message)' rendered badly: \(text)")
        }
        return problems
    }

    private static func contains(_ span: SourceSpan, _ file: SourceFile) -> Bool {
        span.start >= 0 && span.start <= span.end && span.end <= file.bytes.count
    }
}
