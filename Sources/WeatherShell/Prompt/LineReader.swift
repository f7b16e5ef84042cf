/// What reading one line gave.
public enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C at the prompt: drop what was typed and show a fresh prompt.
    case interrupted
    /// Ctrl-D on an empty line, or the end of piped input.
    case endOfInput
}

/// A source of lines: libedit at a terminal, plain reads otherwise. Reads happen on a
/// ``ReaderThread``, off the session's event loop.
public protocol LineReader: Sendable {
    /// Whether Tab completion is offered: the prompt then hands a fresh snapshot to each read.
    var completes: Bool { get }
    /// Reads one line; `continuation` is true inside an open `{` block.
    func readLine(continuation: Bool, completions: CompletionSnapshot?) async -> LineInput
    /// After an entry that did not parse: drops the rest of a paste it came in, so that none of
    /// the paste's lines runs on its own. How many lines were dropped.
    func dropRestOfPaste() async -> Int
}

extension LineReader {
    public func dropRestOfPaste() async -> Int { 0 }
}

/// Reads stdin without libedit and without a prompt, so that only the program's own output reaches stdout.
public final class PlainLineReader: LineReader {
    private let thread = ReaderThread()

    public init() {}

    public var completes: Bool { false }

    public func readLine(continuation: Bool, completions: CompletionSnapshot?) async -> LineInput {
        await thread.run {
            guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
            return .line(line)
        }
    }
}
