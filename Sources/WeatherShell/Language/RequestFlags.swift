/// HTTPie's flags on an ad-hoc request (`get URL -a user:pw -v`), with HTTPie's meaning.
public struct RequestFlags: Sendable, Equatable {
    /// `-A`, `--auth-type`: how `-a` is sent.
    public enum AuthType: String, Sendable, CaseIterable {
        case basic, bearer, digest
    }

    /// `-v`, `-h`, `-b`: what of the exchange is printed.
    public enum Print: Sendable, Equatable {
        /// `-v`: the request sent, then the answer's status line, headers and body.
        case verbose
        /// `-h`: the answer's status line and headers.
        case headers
        /// `-b`: the answer's body only.
        case body
    }

    /// `-a USER:PASS` (`-a TOKEN` with `-A bearer`): a credential, masked wherever it is shown.
    public var auth: Word?
    public var authType: AuthType = .basic
    /// `-A $type`: the word that names the auth type, read when the request runs (``authType`` until then).
    public var authTypeWord: Word?
    public var print: Print?
    /// `-d`, `--download`: the body to a file named from the URL (or `-o`), not to stdout.
    public var download = false
    /// `-F`, `--follow`: follow redirects for this request, whatever `set follow` says.
    public var follow = false
    /// `--offline`: print the request that would be sent, and send nothing.
    public var offline = false
    /// `--check-status`: a 3xx, 4xx or 5xx answer is a failure.
    public var checkStatus = false

    static let valueNames: Set<String> = ["-a", "--auth", "-A", "--auth-type", "-o", "--output"]
    static let names: Set<String> = valueNames.union(["--form", "-f", "--multipart", "--json", "-j", "-v", "--verbose", "-h", "--headers",
                                                      "-b", "--body", "-d", "--download", "-F", "--follow", "--offline", "--check-status"])

    /// The note of an error about a value that is no auth type.
    static let authTypesNote = "auth types: basic (the default), bearer, digest"

    /// The flags named in the error for any other.
    static let supported = "-a/--auth USER:PASS, -A/--auth-type basic|bearer|digest, -v/--verbose, -h/--headers, -b/--body, "
        + "-o/--output FILE, -d/--download, -f/--form, --multipart, -j/--json, -F/--follow, --offline, --check-status, -S/--stream"
}

extension Parser {
    /// The flags among an ad-hoc request's words, taken out of them; `-o FILE` as the output.
    /// A flag's value is the next word, or follows `=` in the same word (`--auth=user:pw`).
    func takeRequestFlags(_ words: inout [Word], style: inout RequestStatement.BodyStyle, output: inout Word?,
                          usage: () -> String) throws(Diagnostic) -> RequestFlags {
        var flags = RequestFlags()
        var styleWord: Word?
        var kept: [Word] = []
        var index = 0
        func value(of flag: Word, _ name: String, attached: Word?) throws(Diagnostic) -> Word {
            if let attached { return attached }
            guard index + 1 < words.count else { throw error("'\(name)' needs a value", flag.span, notes: ["usage: \(usage())"]) }
            index += 1
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            guard let (name, attached) = Self.flag(in: word) else {
                kept.append(word)
                index += 1
                continue
            }
            guard RequestFlags.names.contains(name) else {
                // What follows a `:` may be a password (`--auth:al:pw`, a typo for `--auth=al:pw`).
                let shown = name.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                throw error("unknown option '\(shown[0])\(shown.count > 1 ? ":…" : "")'", word.span,
                            notes: ["options: \(RequestFlags.supported)", "usage: \(usage())"])
            }
            if attached != nil, !RequestFlags.valueNames.contains(name) { throw error("'\(name)' takes no value", word.span) }
            var chosen: RequestStatement.BodyStyle?
            switch name {
            case "--form", "-f": chosen = .form
            case "--multipart": chosen = .multipart
            case "--json", "-j": chosen = .json
            case "-a", "--auth": flags.auth = try value(of: word, name, attached: attached)
            case "-A", "--auth-type":
                let typeWord = try value(of: word, name, attached: attached)
                // Quoted as argparse reads it (`-A"bearer"` is `-A bearer`); a variable is read when the request runs.
                guard let text = typeWord.literal else {
                    flags.authTypeWord = typeWord
                    break
                }
                guard let type = RequestFlags.AuthType(rawValue: text.lowercased()) else {
                    // Not echoed: a credential glued to `-A` by mistake (`-Aal:pw` for `-aal:pw`) would show.
                    throw error("'\(name)' takes an auth type", typeWord.span, notes: [RequestFlags.authTypesNote])
                }
                flags.authType = type
                flags.authTypeWord = nil  // the last `-A` wins, as in HTTPie
            case "-v", "--verbose": flags.print = .verbose
            case "-h", "--headers": flags.print = .headers
            case "-b", "--body": flags.print = .body
            case "-o", "--output":
                let file = try value(of: word, name, attached: attached)
                if output != nil { throw error("the body goes to one file: give -o FILE or > FILE", word.span) }
                output = file
            case "-d", "--download": flags.download = true
            case "-F", "--follow": flags.follow = true
            case "--offline": flags.offline = true
            case "--check-status": flags.checkStatus = true
            default: break
            }
            if let chosen {
                if let earlier = styleWord, style != chosen {
                    throw error("'\(name)' and '\(earlier.bare ?? "")' cannot both be given", word.span)
                }
                style = chosen
                styleWord = word
            }
            index += 1
        }
        words = kept
        return flags
    }

    /// The flag a word is, and the value written after its `=` (`--auth=user:pw`) or glued to a
    /// one-letter flag that takes one (`-auser:pw`, `-Abearer`, `-oout.json`): a word whose first
    /// part is bare text starting with `-` (not `-` alone), as HTTPie (argparse) reads its arguments.
    static func flag(in word: Word) -> (String, Word?)? {
        guard let first = word.parts.first, !first.quoted, case .literal(let text) = first.content,
              text.hasPrefix("-"), text.count > 1 else { return nil }
        let short = String(text.prefix(2))
        // `-a$CRED` and `-a"al:pw"` are glued too: the value is the word's other parts.
        let glued = !text.hasPrefix("--") && (text.count > 2 || word.parts.count > 1) && RequestFlags.valueNames.contains(short)
            && text.dropFirst(2).first != "="
        guard let split = glued ? text.index(text.startIndex, offsetBy: 2) : text.firstIndex(of: "=") else { return (text, nil) }
        let name = String(text[..<split])
        let rest = String(text[(glued ? split : text.index(after: split))...])
        let start = first.span.start + name.utf8.count + (glued ? 0 : 1)
        var parts = Array(word.parts.dropFirst())
        if !rest.isEmpty { parts.insert(WordPart(content: .literal(rest), quoted: false, span: SourceSpan(start: start, end: first.span.end)), at: 0) }
        return (name, Word(parts: parts, span: SourceSpan(start: start, end: word.span.end)))
    }
}
