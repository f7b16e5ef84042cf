import Targets

/// `wsh get URL ITEM...` from the system shell, as `http GET URL` and `xh get URL` are run: the
/// arguments become one ad-hoc request statement, which runs as `-c` would run it.
enum CommandLineRequest {
    /// Whether `word`, the first argument, names a request rather than a script: one of the
    /// method commands (`get`, `post`, ...) or a method token in capitals (`GET`, `PROPFIND`).
    /// Called on every start with arguments, so it is a set lookup and a scan of the word.
    static func isVerb(_ word: String) -> Bool {
        if lowercaseVerbs.contains(word) { return true }
        var letters = 0
        for byte in word.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters += 1
            case UInt8(ascii: "-"), UInt8(ascii: "_"): continue
            default: return false
            }
        }
        return letters > 0
    }

    private static let lowercaseVerbs: Set<String> = Set(RequestStatement.methodCommands)

    /// `wsh request PROPFIND URL ...`, the line as the prompt takes it, as `wsh PROPFIND URL ...`;
    /// other arguments as they are (`wsh request` alone runs a script named `request`, and
    /// `wsh request --help` is wsh's help).
    static func withoutRequestWord(_ arguments: [String]) -> [String] {
        guard arguments.first == "request", arguments.count > 1, arguments[1].first?.isLetter == true,
              isVerb(arguments[1].uppercased()) else { return arguments }
        return [arguments[1].uppercased()] + arguments.dropFirst(2)
    }

    /// The statement the arguments stand for: `get 'URL' ...`, or `request PROPFIND ...` for a
    /// method with no command of its own. Each argument is one word, quoted when the shell would
    /// otherwise read something in it (a blank, `$`, `;`, a quote), so what the system shell
    /// passed is what the request sends.
    static func statement(_ arguments: [String]) -> String {
        guard let verb = arguments.first else { return "" }
        let lower = verb.lowercased()
        let command = lowercaseVerbs.contains(lower) ? lower : "request " + verb
        // From the system shell the status always decides the exit code (exitCode), as if it were given.
        let rest = arguments.dropFirst().filter { $0 != "--check-status" }
        return ([command] + rest.map(word)).joined(separator: " ")
    }

    /// The arguments with `--ignore-stdin` (`-I`) taken out, and `@-` added when stdin is the body,
    /// as HTTPie reads it: a method that sends a body (POST, PUT, PATCH), stdin free (not a
    /// terminal), no body of the request's own (no field, file or `@FILE` item) and stdin not
    /// empty, so that a request run with stdin at /dev/null (as CI runs it) sends no body. A GET,
    /// HEAD or DELETE never reads it: `while read id; do wsh get "$API/$id"; done < ids` reads
    /// on, and `ssh host wsh get URL` does not wait for the terminal's end of file.
    static func readingStdin(_ arguments: [String]) -> [String] {
        let kept = arguments.filter { $0 != "--ignore-stdin" && $0 != "-I" }
        let ignored = kept.count != arguments.count
        guard !ignored, ["post", "put", "patch"].contains(kept.first?.lowercased() ?? ""), StandardInput.isFree, !givesBody(kept),
              !StandardInput.contents().isEmpty else { return kept }
        return kept + ["@-"]
    }

    /// Whether the request's items give it a body: a field, a file part or `@FILE`. The verb,
    /// the URL (the first word that is no flag) and the values of flags are not items.
    private static func givesBody(_ arguments: [String]) -> Bool {
        var sawURL = false
        var skipNext = false
        for argument in arguments.dropFirst() {
            if skipNext { skipNext = false; continue }
            if argument.hasPrefix("-"), argument.count > 1 {
                skipNext = RequestFlags.valueNames.contains(argument)
                continue
            }
            if !sawURL { sawURL = true; continue }
            switch RequestItem(argument) {
            case .field?, .fieldFromFile?, .file?, .body?: return true
            case .query?, .header?, nil: continue
            }
        }
        return false
    }

    /// The exit code of `wsh get URL`, given `code`, the run's: as HTTPie's `--check-status`, an
    /// answer of 3xx (a redirect not followed), 4xx or 5xx exits with 3, 4 or 5, with HTTPie's
    /// warning when stdout is not a terminal (where the status line is not shown).
    @ShellActor
    static func exitCode(_ code: Int32, answer: Response?, io: ShellIO) -> Int32 {
        guard code == 0, let answer, (300..<600).contains(answer.status) else { return code }
        if !io.stdoutIsTerminal { io.err("wsh: warning: HTTP \(answer.status) \(answer.reason)\n") }
        return Int32(answer.status / 100)
    }

    /// `text` as one word of the language with the same value.
    static func word(_ text: String) -> String {
        if !text.isEmpty, !text.hasPrefix("."), !text.hasPrefix("#"), text.utf8.allSatisfy(isPlain) { return text }
        if !text.contains("'"), !text.contains(where: \.isNewline) { return "'" + text + "'" }
        return "\"" + text.map(Run.escaped).joined() + "\""
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-_./:=@%+,~?&!*^[]".utf8.contains(byte)
        }
    }
}

extension CommandLineRequest {
    /// The note after `cannot read 'FILE'` for a script that is not there: the word may have
    /// been meant as a statement or a request, and neither reads a file.
    static func noteForMissingScript(_ file: String, _ problem: ReadableFile.Problem) -> String {
        guard problem.isMissing else { return "" }
        if isVerb(file) { return "note: a request's method comes first on the command line: wsh \(file) URL [ITEM...] [FLAGS]\n" }
        var note = "note: wsh FILE runs a script; wsh -c 'LINE' runs a line; wsh get URL [ITEM...] sends a request\n"
        if !file.contains("/"), !file.contains("."), let verb = Suggestion.closest(to: file, in: RequestStatement.methodCommands) {
            note = "note: did you mean 'wsh \(verb) ...'? " + note.dropFirst("note: ".count)
        }
        return note
    }
}
