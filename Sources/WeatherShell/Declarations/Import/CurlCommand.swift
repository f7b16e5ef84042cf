import Foundation

/// What a curl command line asks for, read from its words as curl reads its options: the method,
/// URL, headers, body and what has no equivalent in a target (named in ``notes``). Understands
/// what browsers' "Copy as cURL" writes, and the options people add by hand.
struct CurlCommand {
    /// One piece of `-d`-style data, before the pieces are joined with `&`.
    enum Data {
        /// `-d`, `--data`, `--data-ascii`: `@FILE` is the file without line breaks.
        case ascii(String)
        /// `--data-raw`: the text as it is.
        case raw(String)
        /// `--data-binary`, `--json`: `@FILE` is the file as it is.
        case binary(String)
        /// `--data-urlencode`.
        case urlencode(String)
    }

    /// One `-F`/`--form-string` part.
    struct FormPart {
        var name: String
        var value: String
        /// `-F name=@FILE` sends a file; `--form-string` never does.
        var literal: Bool
    }

    var url: String?
    var method: String?
    var headers: [(name: String, value: String)] = []
    var data: [Data] = []
    var form: [FormPart] = []
    var user: String?
    /// `--oauth2-bearer`: the token curl sends as `Authorization: Bearer`.
    var bearer: String?
    /// `--digest`, `--ntlm`, `--negotiate`: the scheme `-u` is for when it is not Basic.
    var authScheme: String?
    var json = false
    var dataInQuery = false
    var head = false
    var timeout: String?
    /// Options that change nothing the target sends, each said once.
    var notes: [String] = []

    struct Failure: Error {
        var message: String
    }

    /// Options that take a value but have no equivalent: the value is skipped.
    private static let skippedWithValue: Set<String> = [
        "-o", "--output", "-w", "--write-out", "-x", "--proxy", "-E", "--cert", "--cacert", "--key", "-c", "--cookie-jar",
        "-r", "--range", "--retry", "-K", "--config", "--resolve", "--interface", "-U", "--proxy-user", "--limit-rate",
        "-y", "--speed-time", "-Y", "--speed-limit", "-z", "--time-cond", "--max-redirs", "-D", "--dump-header",
        "--connect-timeout", "--connect-to", "--capath", "--cert-type", "--key-type", "--pass", "--proxy-header",
        "--retry-delay", "--retry-max-time", "-T", "--upload-file", "--trace", "--trace-ascii", "--stderr",
        "--unix-socket", "--abstract-unix-socket", "--dns-servers", "--ciphers", "--tls-max", "--local-port",
        "--output-dir", "--keepalive-time", "--expect100-timeout", "--happy-eyeballs-timeout-ms", "--ftp-port", "-P",
    ]

    /// Options without a value that change nothing the target sends (`-s`, `-v`) or that wsh does
    /// anyway (`-L`: wsh follows redirects; `--compressed`: wsh asks for and decodes encodings itself).
    private static let understoodFlags: Set<String> = [
        "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include", "-L", "--location",
        "--compressed", "-f", "--fail", "--fail-with-body", "-#", "--progress-bar", "--no-progress-meter", "-N", "--no-buffer",
        "-g", "--globoff", "--http1.1", "--http2", "--http2-prior-knowledge", "--path-as-is", "-q", "--disable",
        "--location-trusted", "--raw", "-Z", "--parallel", "-n", "--netrc", "-O", "--remote-name", "-J", "--remote-header-name",
        "--tr-encoding", "--no-keepalive", "--tcp-nodelay", "-4", "--ipv4", "-6", "--ipv6", "-0", "--http1.0",
    ]

    /// Short options that take a value.
    private static let shortWithValue: Set<Character> = ["X", "H", "d", "F", "u", "A", "e", "b", "m", "o", "w", "x", "E", "c",
                                                          "r", "K", "U", "y", "Y", "z", "D", "T", "P"]

    /// The option just read, when wsh does not understand it: the word after it may be its value.
    private var lastUnknownOption: String?

    /// Reads `words`, the first of which is `curl`.
    init(words: [String]) throws(Failure) {
        guard words.first == "curl" else { throw Failure(message: "the command must start with curl") }
        var rest = Array(words.dropFirst())[...]
        var noted: [String] = []
        var positional: [(word: String, after: String?)] = []
        while let word = rest.popFirst() {
            var option = word
            var attached: String?
            if word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 2 {
                // `-sSL`, `-XPOST`, `-sXPOST`: flags, then maybe one option whose value is the rest.
                let letters = Array(word.dropFirst())
                var split = letters.count
                for (offset, letter) in letters.enumerated() where Self.shortWithValue.contains(letter) {
                    split = offset
                    break
                }
                for letter in letters[..<split] {
                    try apply("-\(letter)", value: { () throws(Failure) -> String in "" }, noted: &noted)
                }
                guard split < letters.count else { continue }
                option = "-\(letters[split])"
                let remainder = String(letters[(split + 1)...])
                attached = remainder.isEmpty ? nil : remainder
            }
            if !option.hasPrefix("-") || option == "-" {
                positional.append((word, after: lastUnknownOption))
                lastUnknownOption = nil
                continue
            }
            lastUnknownOption = nil
            let value = { () throws(Failure) -> String in
                if let attached { return attached }
                guard let next = rest.popFirst() else { throw Failure(message: "\(option) needs a value") }
                return next
            }
            try apply(option, value: value, noted: &noted)
        }
        try chooseURL(among: positional, noted: &noted)
        guard url != nil else { throw Failure(message: "the command has no URL") }
    }

    /// The URL among the words that follow no option wsh knows. A word right after an option wsh
    /// does not understand (`--frobnicate VALUE URL`) may be that option's value, perhaps a
    /// credential: it is the URL only when no other word is, and it is never shown.
    private mutating func chooseURL(among words: [(word: String, after: String?)], noted: inout [String]) throws(Failure) {
        guard !words.isEmpty else { return }
        let plain = words.filter { $0.after == nil }
        let skipped = words.compactMap(\.after)
        if url == nil, plain.isEmpty, words.count == 1 {
            url = words[0].word
            return
        }
        let wanted = url == nil ? 1 : 0
        guard plain.count == wanted else {
            if plain.count < wanted, let unknown = skipped.first {
                throw Failure(message: "cannot tell which word is the URL: each follows an option wsh does not understand (\(unknown)), and may be its value")
            }
            throw Failure(message: "more than one URL: \(plain.last?.word.prefix(80) ?? "")")
        }
        if url == nil { url = plain[0].word }
        for option in skipped { note("the word after \(option) is taken as its value and left out", &noted) }
    }

    private mutating func apply(_ option: String, value: () throws(Failure) -> String, noted: inout [String]) throws(Failure) {
        switch option {
        case "-X", "--request": method = try value()
        case "--url":
            guard url == nil else { throw Failure(message: "more than one URL") }
            url = try value()
        case "-H", "--header":
            let text = try value()
            if let colon = text.firstIndex(of: ":") {
                let name = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
                let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                if value.isEmpty {
                    note("-H '\(name):' removes a header curl adds; wsh does not add it", &noted)
                } else {
                    headers.append((name, value))
                }
            } else if text.hasSuffix(";") {
                headers.append((String(text.dropLast()).trimmingCharacters(in: .whitespaces), ""))
            } else {
                throw Failure(message: "a header is Name: value: \(text.prefix(80))")
            }
        case "-d", "--data", "--data-ascii": data.append(.ascii(try value()))
        case "--data-raw": data.append(.raw(try value()))
        case "--data-binary": data.append(.binary(try value()))
        case "--data-urlencode": data.append(.urlencode(try value()))
        case "--json":
            data.append(.binary(try value()))
            json = true
        case "-F", "--form", "--form-string":
            let text = try value()
            guard let equals = text.firstIndex(of: "=") else { throw Failure(message: "a form part is name=value: \(text.prefix(80))") }
            form.append(FormPart(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]),
                                 literal: option == "--form-string"))
        case "-u", "--user": user = try value()
        case "--oauth2-bearer": bearer = try value()
        case "--basic": authScheme = nil
        case "--digest", "--ntlm", "--negotiate": authScheme = String(option.dropFirst(2))
        case "-A", "--user-agent": headers.append(("User-Agent", try value()))
        case "-e", "--referer": headers.append(("Referer", try value()))
        case "-b", "--cookie":
            let cookie = try value()
            if cookie.contains("=") {
                headers.append(("Cookie", cookie))
            } else {
                note("-b \(cookie): a cookie file is not read; cookies go in a Cookie header", &noted)
            }
        case "-G", "--get": dataInQuery = true
        case "-I", "--head": head = true
        case "-m", "--max-time": timeout = try value()
        case "-k", "--insecure": note("-k: a target does not turn off certificate checks", &noted)
        default:
            if Self.understoodFlags.contains(option) { return }
            if Self.skippedWithValue.contains(option) {
                _ = try value()
                note("\(option) has no equivalent in a target and is left out", &noted)
                return
            }
            note("\(option) is not understood and is left out", &noted)
            lastUnknownOption = option
        }
    }

    private mutating func note(_ text: String, _ noted: inout [String]) {
        guard !noted.contains(text) else { return }
        noted.append(text)
        notes.append(text)
    }
}
