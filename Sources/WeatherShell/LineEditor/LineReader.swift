/// What reading one line gave.
public enum LineInput: Equatable {
    case line(String)
    /// Ctrl-C at the prompt: drop what was typed and show a fresh prompt.
    case interrupted
    /// Ctrl-D on an empty line, or the end of piped input.
    case endOfInput
}

/// A source of lines: libedit at a terminal, plain reads otherwise.
@ShellActor
public protocol LineReader: AnyObject {
    /// Reads one line; `continuation` is true inside an open `{` block.
    func readLine(continuation: Bool) -> LineInput
}

/// Reads stdin without libedit and without a prompt, so that only the program's own output reaches stdout.
@ShellActor
public final class PlainLineReader: LineReader {
    public init() {}

    public func readLine(continuation: Bool) -> LineInput {
        guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
        return .line(line)
    }
}
