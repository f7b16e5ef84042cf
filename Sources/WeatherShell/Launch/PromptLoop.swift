import Plugins

/// Reads entries line by line (a `{` block or a trailing `\\` continues to the next line) and
/// runs each. At the prompt, errors are shown and the prompt returns; with piped input the
/// run stops at the first error while bail is on.
@ShellActor
struct PromptLoop {
    let run: Run
    let reader: LineReader
    let interrupts: InterruptHandler

    func run() async -> Int32 {
        let interactive = run.mode == .interactive
        var pending = ""
        var scanner = EntryScanner()
        var lineNumber = 0
        var entryFirstLine = 1
        let directory = run.currentFile.directory
        while true {
            run.io.flush()
            let snapshot = reader.completes ? run.completionSnapshot() : nil
            let input = await reader.readLine(continuation: !pending.isEmpty, completions: snapshot)
            switch input {
            case .interrupted:
                pending = ""
                scanner = EntryScanner()
                continue
            case .endOfInput:
                if pending.isEmpty { return interactive ? 0 : run.firstFailure?.exitCode ?? 0 }
            case .line(let line):
                if pending.isEmpty { entryFirstLine = lineNumber + 1 }
                // A block recalled from the history comes as one line holding its line breaks.
                lineNumber += 1 + line.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                pending += line + "\n"
                scanner.add(line + "\n")
                // Blocks deeper than the reader takes are an error now: reading on to the end would
                // only hold the error back.
                if scanner.needsMoreInput, scanner.depth <= RawStatementReader.maximumDepth { continue }
            }
            let text = pending
            // At the prompt an error names the entry's own line (`prompt:2:5`, its second line); piped
            // input keeps its numbering, as a file's.
            let (name, firstLine) = interactive ? ("prompt", 1) : ("<stdin>", entryFirstLine)
            pending = ""
            scanner = EntryScanner()
            run.exitedSourcedFile = nil
            run.exitSaidIn = nil
            run.exitedAction = nil
            let parsed = EntryParsed()
            let outcome = await Shell.outcome(interrupts) {
                parsed.value = try await run.execute(text: text, file: name, directory: directory, firstLine: firstLine)
            }
            // Under `set bail on` a parse error ends the entry as a failure before `execute` returns.
            if interactive, !parsed.value || outcome == .failure(.parse) {
                // What follows in a paste was written to go with the entry that did not parse (a
                // block misread would run its body at the top): as in a script, it stops at the error.
                let dropped = await reader.dropRestOfPaste()
                if dropped > 0 {
                    run.io.err("note: the rest of the paste (\(dropped) line\(dropped == 1 ? "" : "s")) was not run: it came after an error\n")
                }
            }
            switch outcome {
            case .exit(let code):
                // An `exit` in a file sourced at the prompt, or in a reactor action run there, ends
                // that file or action and the entry only.
                guard interactive, let ended = Self.ended(by: code, action: run.exitedAction, file: run.exitedSourcedFile,
                                                          saidIn: run.exitSaidIn) else { return code }
                run.io.err("note: \(ended); the session goes on (exit here leaves wsh)\n")
            case .failure(.interrupted) where !interactive: return Interruption.exitCode
            case .failure(let kind) where !interactive: return kind.exitCode
            case .completed, .failure: break
            }
        }
    }

    /// What an `exit` not typed at the prompt ended, for the note: an action (`exit 5 in action
    /// 'a go' (ex.wsh:3:45) ended it`, and the file sourced at the prompt that ran it), or a file
    /// sourced at the prompt; nil when the `exit` was typed at the prompt (it leaves wsh).
    static func ended(by code: Int32, action: String?, file: String?, saidIn: String?) -> String? {
        if let action {
            return "exit \(code) in action \(action) ended it" + (file.map { " and \($0)" } ?? "")
        }
        guard let file else { return nil }
        return saidIn.map { "exit \(code) in \($0) ended \(file)" } ?? "\(file) ended with exit \(code)"
    }
}

/// Whether the entry run last parsed; set on the session's actor by the work that runs it.
@ShellActor
private final class EntryParsed {
    var value = true
}
