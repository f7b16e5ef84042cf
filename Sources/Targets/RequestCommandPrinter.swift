import Foundation

/// Prints a ``Request`` as a shell command for curl or HTTPie: the one printer behind
/// `show NAME --curl`, `show NAME --httpie` and the logger's `curl` mode.
///
/// - ``Purpose/run``: a command that sends exactly this request when `sh` runs it. Headers and
///   bytes as they are; a text body with `--data-raw` (never `-d`, which drops line breaks), a
///   body from a file with `--data-binary @FILE`, any other body through `printf`; multipart parts
///   with `-F`/`--form-string`; redirects followed (`-L`) as wsh follows them. A secret with a
///   ``SecretReference`` is written as its variable (`"Bearer $TOKEN"`); a Basic credential holding
///   one as `-u`. Any other secret value, in any form, is written `***` and reported in
///   ``PrintedCommand/maskedSecrets``.
/// - ``Purpose/log``: one hop as the logger shows it, everything ``Redaction`` masks as `***`,
///   a binary body by its size.
public struct RequestCommandPrinter: Sendable {
    /// Which program the command runs.
    public enum Tool: String, Sendable, CaseIterable {
        case curl
        case httpie
    }

    /// What the command is for.
    public enum Purpose: Sendable {
        /// To be run as printed.
        case run
        /// To be read in a log: one hop, every secret masked.
        case log
    }

    public var tool: Tool
    public var purpose: Purpose
    /// What is masked: in a log everything it masks; in a command to run, the secret values.
    public var redaction: Redaction
    /// Secrets written as references to their environment variables (``Purpose/run`` only); values
    /// shorter than ``SecretForms/minimumLength`` are left as they are, as masking leaves them.
    public var references: [SecretReference]
    /// A file holding exactly the body's bytes, sent as `--data-binary @FILE`.
    public var bodyFile: String?
    /// Files a multipart part may have been read from: a part is sent from the one with its file
    /// name and its bytes.
    public var partFiles: [String]
    /// Headers the caller adds to every request on its own (the shell's `User-Agent: wsh/VERSION`),
    /// left out of a command to run, as the tool sends its own. Whatever this holds, `Accept: */*` is
    /// left out (both tools send it), and the `Accept-Encoding` of ``ContentDecoding`` is curl's
    /// `--compressed` (HTTPie asks for compressed answers on its own).
    public var clientHeaders: [Header] = []
    /// Whether the call follows redirects (`-L`, `--follow` in a command to run).
    public var followsRedirects = true
    /// How many redirects it follows, when the user said (`--max-redirs`, `--max-redirects`).
    public var redirectLimit: Int?
    /// HTTP/1.1 only (`set http 1.1`): `--http1.1` for curl; HTTPie speaks nothing else.
    public var http1Only = false
    /// Credentials go to every host of a redirect chain: curl's `--location-trusted` for `-L`.
    public var followsTrusted = false
    /// No verification of the server's certificate (`set insecure on`): curl's `-k`, HTTPie's `--verify=no`.
    public var insecure = false
    /// A PEM file of CA certificates to trust (`set cacert`), as the command's user can reach it:
    /// `--cacert FILE`, HTTPie's `--verify=FILE`. Both tools then trust that file alone, where
    /// the call trusts it besides the system's. Left out under ``insecure``.
    public var caCertificateFile: String?
    /// The client certificate's PEM file (`set cert`): `--cert FILE` for curl and HTTPie.
    public var clientCertificateFile: String?
    /// The key of ``clientCertificateFile`` when it is in a file of its own: `--key FILE`, HTTPie's `--cert-key=FILE`.
    public var clientKeyFile: String?
    /// The proxy every request goes through (`set proxy URL`): `-x URL`, HTTPie's `--proxy` for
    /// both schemes. A password in it is written as its variable, or `***` (``PrintedCommand/maskedSecrets``).
    public var proxy: String?
    /// Every request goes directly, whatever the environment's proxy variables say (`set proxy
    /// off`): curl's `--noproxy '*'`, HTTPie's `--proxy=http: --proxy=https:`.
    public var bypassesProxy = false
    /// Credentials the call answers a Digest challenge with (`plugin auth digest`): curl's
    /// `--digest -u USER:PASSWORD`, HTTPie's `-A digest -a USER:PASSWORD`, the password written
    /// as its variable or `***`.
    public var digestCredential: (user: String, password: String)?

    /// A printer; see ``Purpose`` for what each purpose prints.
    public init(
        tool: Tool, purpose: Purpose, redaction: Redaction, references: [SecretReference] = [],
        bodyFile: String? = nil, partFiles: [String] = []
    ) {
        self.tool = tool
        self.purpose = purpose
        self.redaction = redaction
        // A value too short to mask is too short to tell apart from other text: `10` would turn
        // port 8010 into a reference.
        self.references = references.filter { $0.value.count >= SecretForms.minimumLength && ShellWord.isVariableName($0.environmentName) }
            .sorted { $0.value.count > $1.value.count }
        self.bodyFile = bodyFile
        self.partFiles = partFiles
    }

    /// The command, one option per line joined by ` \` and a line break.
    public func command(for request: Request) throws(CommandPrintingError) -> PrintedCommand {
        var builder = CommandBuilder(printer: self)
        switch tool {
        case .curl: try builder.curl(request)
        case .httpie: try builder.httpie(request)
        }
        return builder.printed
    }
}

/// A printed command and what it could not write as it is.
public struct PrintedCommand: Sendable, Equatable {
    /// The command line.
    public var text: String
    /// Whether some secret with no environment variable is written `***`, so the command needs it filled in.
    public var maskedSecrets: Bool
    /// Environment variables whose values are written `***` too: they are sent in an encoded form
    /// (percent-encoded in a path, JSON-escaped, ...) that the command cannot write as `$VAR`.
    public var encodedReferences: [String] = []

    public init(text: String, maskedSecrets: Bool, encodedReferences: [String] = []) {
        self.text = text
        self.maskedSecrets = maskedSecrets
        self.encodedReferences = encodedReferences
    }
}

/// Why a request cannot be printed as a command.
public struct CommandPrintingError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Collects the words of one command.
private struct CommandBuilder {
    let printer: RequestCommandPrinter
    var prefix = ""
    /// The command's lines: an option with its value, the URL, an item.
    var lines: [[ShellWord]] = []
    var suffix = ""
    var maskedSecrets = false
    var encodedReferences: [String] = []

    init(printer: RequestCommandPrinter) {
        self.printer = printer
    }

    var running: Bool { printer.purpose == .run }

    var printed: PrintedCommand {
        let text = prefix + lines.map { $0.map(\.quoted).joined(separator: " ") }.joined(separator: " \\\n  ") + suffix
        return PrintedCommand(text: text, maskedSecrets: maskedSecrets, encodedReferences: encodedReferences)
    }

    // MARK: curl

    mutating func curl(_ request: Request) throws(CommandPrintingError) {
        option("curl")
        let body = request.body
        if running, printer.followsRedirects { append(ShellWord(printer.followsTrusted ? "--location-trusted" : "-L")) }
        if running, printer.followsRedirects, let limit = printer.redirectLimit { append(ShellWord("--max-redirs")); append(ShellWord("\(limit)")) }
        if running, printer.http1Only { append(ShellWord("--http1.1")) }
        if request.header("Accept-Encoding") == ContentDecoding.acceptedCodings { append(ShellWord("--compressed")) }
        // curl reads `[...]` and `{...}` in a URL as globs unless told not to.
        if request.url.utf8.contains(where: { "[]{}".utf8.contains($0) }) { append(ShellWord("-g")) }
        if running { curlConnection() }
        let impliedMethod: HTTPMethod = body == nil ? .get : .post
        if request.method == .head, body == nil {
            option("--head")
        } else if request.method != impliedMethod {
            option("-X", request.method.rawValue)
        }
        let query = running ? QueryWithReferences(url: request.url, references: printer.references) : nil
        line(value(printer.purpose == .log ? printer.redaction.maskedURL(request.url) : query?.url ?? request.url))
        for pair in query?.moved ?? [] {
            option("--url-query")
            // `name=$VAR` has curl encode the value; `+name=value` is sent as it is.
            if let reference = pair.reference {
                append(ShellWord(pieces: [.text(pair.name + "="), .variable(reference.environmentName)]))
            } else {
                append(value("+" + pair.name + (pair.value.map { "=" + $0 } ?? "")))
            }
        }
        let parts = multipartParts(of: request)
        let (credential, headerWords) = headers(of: request, multipart: parts != nil, separator: ": ")
        for word in headerWords {
            option("-H")
            append(word)
        }
        if running, request.header("User-Agent") == nil { option("-H", "User-Agent:") }
        if let credential {
            option("-u")
            append(credential)
        } else if running, let digest = printer.digestCredential {
            option("--digest", "-u")
            append(credentialWord(digest))
        }
        if let body {
            if let parts {
                try curlParts(parts)
            } else {
                if request.header("Content-Type") == nil { option("-H", "Content-Type:") }
                curlBody(body, contentType: request.header("Content-Type"))
            }
        }
        if let timeout = request.timeout { option("--max-time", timeout.secondsText) }
    }

    /// How curl reaches the server: certificates, client certificate, proxy.
    private mutating func curlConnection() {
        if printer.insecure {
            append(ShellWord("-k"))
        } else if let file = printer.caCertificateFile {
            option("--cacert", file)
        }
        if let file = printer.clientCertificateFile {
            // curl reads `FILE:PASSWORD` here: a colon of the path is escaped, and a backslash.
            option("--cert", file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:"))
            if let key = printer.clientKeyFile { append(ShellWord("--key")); append(ShellWord(key)) }
        }
        if let proxy = printer.proxy {
            option("-x")
            append(proxyWord(proxy))
        } else if printer.bypassesProxy {
            option("--noproxy", "*")
        }
    }

    private mutating func curlBody(_ body: Data, contentType: String?) {
        if running, let file = printer.bodyFile {
            option("--data-binary")
            append(ShellWord("@" + file))
        } else if let text = Self.text(of: body) {
            option("--data-raw")
            append(value(printer.purpose == .log ? printer.redaction.maskedBody(body, contentType: contentType) : text))
        } else if running {
            prefix = "printf " + ShellWord.singleQuoted(PrintfBytes.format(body)) + " | "
            option("--data-binary", "@-")
        } else {
            option("--data-binary", "<\(body.count) bytes of binary data>")
        }
    }

    private mutating func curlParts(_ parts: [MultipartParts.Part]) throws(CommandPrintingError) {
        for part in parts {
            if let filename = part.filename {
                let path = try file(of: part, named: filename)
                option("-F")
                append(ShellWord("\(part.name)=@\(Self.curlFormQuoted(path))" + (part.contentType.map { ";type=\($0)" } ?? "")))
            } else {
                option("--form-string")
                append(value(part.name + "=" + String(decoding: part.content, as: UTF8.self)))
            }
        }
    }

    // MARK: HTTPie

    mutating func httpie(_ request: Request) throws(CommandPrintingError) {
        option("http")
        let body = request.body
        let parts = multipartParts(of: request)
        let fromStdin = body != nil && parts == nil && running && (printer.bodyFile != nil || body.flatMap(Self.text(of:)) == nil)
        if !fromStdin { append(ShellWord("--ignore-stdin")) }
        if running, printer.followsRedirects { append(ShellWord("--follow")) }
        if running, printer.followsRedirects, let limit = printer.redirectLimit { append(ShellWord("--max-redirects=\(limit)")) }
        if let timeout = request.timeout { append(ShellWord("--timeout=\(timeout.secondsText)")) }
        if parts != nil { append(ShellWord("--multipart")) }
        if running { httpieConnection() }
        let (credential, headerWords) = headers(of: request, multipart: parts != nil, separator: ":")
        if let credential {
            option("-a")
            append(credential)
        } else if running, let digest = printer.digestCredential {
            option("-A", "digest", "-a")
            append(credentialWord(digest))
        }
        option(request.method.rawValue)
        // HTTPie's `name==value` items carry the decoded pair, which it encodes after the URL's query.
        let query = running ? QueryWithReferences(url: request.url, references: printer.references, bareKeysMove: false) : nil
        append(value(printer.purpose == .log ? printer.redaction.maskedURL(request.url) : query?.url ?? request.url))
        for pair in query?.moved ?? [] {
            let name = Self.httpieEscaped(PercentEncoding.decode(Substring(pair.name)))
            if let reference = pair.reference {
                line(ShellWord(pieces: [.text(name + "=="), .variable(reference.environmentName)]))
            } else {
                line(value(name + "==" + PercentEncoding.decode(Substring(pair.value ?? ""))))
            }
        }
        lines += headerWords.map { [$0] }
        // HTTPie sends its own of these unless an empty item unsets it; the call sent none.
        if running, request.header("Accept-Encoding") == nil { option("Accept-Encoding:") }
        if running, request.header("User-Agent") == nil { option("User-Agent:") }
        guard let body else { return }
        if let parts {
            for part in parts {
                let name = Self.httpieEscaped(part.name)
                if let filename = part.filename {
                    line(ShellWord("\(name)@\(try file(of: part, named: filename))" + (part.contentType.map { ";type=\($0)" } ?? "")))
                } else {
                    line(value(name + "=" + String(decoding: part.content, as: UTF8.self)))
                }
            }
            return
        }
        // HTTPie sends a body as JSON unless told otherwise: an empty value unsets its Content-Type.
        if request.header("Content-Type") == nil { option("Content-Type:") }
        if running, let file = printer.bodyFile {
            suffix = " \\\n  < " + ShellWord.quoted(text: file)
        } else if let text = Self.text(of: body) {
            let shown = printer.purpose == .log ? printer.redaction.maskedBody(body, contentType: request.header("Content-Type")) : text
            var word = value(shown)
            word.pieces.insert(.text("--raw="), at: 0)
            line(word)
        } else if running {
            prefix = "printf " + ShellWord.singleQuoted(PrintfBytes.format(body)) + " | "
        } else {
            option("--raw=<\(body.count) bytes of binary data>")
        }
    }

    /// How HTTPie reaches the server: certificates, client certificate, proxy.
    private mutating func httpieConnection() {
        if printer.insecure {
            append(ShellWord("--verify=no"))
        } else if let file = printer.caCertificateFile {
            line(ShellWord("--verify=" + file))
        }
        if let file = printer.clientCertificateFile {
            line(ShellWord("--cert=" + file))
            if let key = printer.clientKeyFile { append(ShellWord("--cert-key=" + key)) }
        }
        if let proxy = printer.proxy {
            for scheme in ["http", "https"] {
                var word = proxyWord(proxy)
                word.pieces.insert(.text("--proxy=\(scheme):"), at: 0)
                if scheme == "http" { line(word) } else { append(word) }
            }
        } else if printer.bypassesProxy {
            line(ShellWord("--proxy=http:"))
            append(ShellWord("--proxy=https:"))
        }
    }

    /// A file name in a `-F` option in double quotes, which curl reads whole (a `;` inside does
    /// not start another parameter), `"` and `\` escaped. (curl 7.88 sends a quoted `type=` with
    /// its quotes, so a type is written bare.)
    private static func curlFormQuoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A key of an HTTPie item with its separator characters escaped.
    private static func httpieEscaped(_ key: String) -> String {
        var out = ""
        for character in key {
            if "\\:=@;".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    // MARK: words

    /// A new line of these words.
    private mutating func option(_ texts: String...) {
        lines.append(texts.map(ShellWord.init))
    }

    /// A word on a line of its own.
    private mutating func line(_ word: ShellWord) {
        lines.append([word])
    }

    /// A word at the end of the last line: an option's value.
    private mutating func append(_ word: ShellWord) {
        if lines.isEmpty { lines.append([]) }
        lines[lines.count - 1].append(word)
    }

    /// The request's headers as words, `Name: value` (curl) or `Name:value` (HTTPie), an empty
    /// value as `Name;` (both tools read `Name:` as "do not send Name"); a multipart body's
    /// Content-Type left to the tool, which draws its own boundary; and a Basic credential that
    /// holds a secret, to give with `-u`/`-a`.
    private mutating func headers(of request: Request, multipart: Bool, separator: String) -> (credential: ShellWord?, [ShellWord]) {
        var credential: ShellWord?
        var words: [ShellWord] = []
        for header in request.headers {
            if multipart, header.name.lowercased() == "content-type" { continue }
            if isClientHeader(header) { continue }
            if let basic = basicCredential(header) {
                credential = value(basic)
                continue
            }
            let shown = printer.purpose == .log ? printer.redaction.maskedHeader(header) : header
            guard !shown.value.isEmpty else {
                words.append(ShellWord("\(shown.name);"))
                continue
            }
            var word = value(shown.value)
            word.pieces.insert(.text(shown.name + separator), at: 0)
            words.append(word)
        }
        return (credential, words)
    }

    /// Whether the tool sends this header on its own, or an option says it (``RequestCommandPrinter/clientHeaders``).
    private func isClientHeader(_ header: Header) -> Bool {
        let name = header.name.lowercased()
        if name == "accept", header.value == "*/*" { return true }
        if name == "accept-encoding", header.value == ContentDecoding.acceptedCodings { return true }
        return running && printer.clientHeaders.contains { $0.name.lowercased() == name && $0.value == header.value }
    }

    /// `USER:PASSWORD` of a Basic Authorization header that holds a secret, so that the command can
    /// give it with `-u`/`-a` and refer to the secret's variable; nil otherwise (the header is
    /// printed as it is).
    private func basicCredential(_ header: Header) -> String? {
        guard running, header.name.lowercased() == "authorization", header.value.hasPrefix("Basic "),
              let decoded = Data(base64Encoded: String(header.value.dropFirst(6))),
              let credential = String(data: decoded, encoding: .utf8), credential.contains(":") else { return nil }
        let holdsSecret = printer.references.contains { credential.contains($0.value) }
            || printer.redaction.mask(credential) != credential
        return holdsSecret ? credential : nil
    }

    /// `text` as one word: in a command to run, each secret with a reference as its variable and
    /// any other secret masked; in a log, masked.
    private mutating func value(_ text: String) -> ShellWord {
        var pieces: [ShellWord.Piece] = [.text(text)]
        if running {
            for reference in printer.references {
                pieces = pieces.flatMap { piece -> [ShellWord.Piece] in
                    guard case .text(let text) = piece, text.contains(reference.value) else { return [piece] }
                    let split = text.components(separatedBy: reference.value)
                    return split.enumerated().flatMap { index, part -> [ShellWord.Piece] in
                        index == 0 ? [.text(part)] : [.variable(reference.environmentName), .text(part)]
                    }
                }
            }
        }
        pieces = pieces.map { piece in
            guard case .text(let text) = piece else { return piece }
            let masked = printer.redaction.mask(text)
            if masked != text { noteMasked(text) }
            return .text(masked)
        }
        let nonEmpty = pieces.filter { $0 != .text("") }
        return ShellWord(pieces: nonEmpty.isEmpty ? [.text("")] : nonEmpty)
    }

    /// `USER:PASSWORD` for `-u`/`-a`: the password as its variable, or masked.
    private mutating func credentialWord(_ credential: (user: String, password: String)) -> ShellWord {
        ShellWord(pieces: value(credential.user).pieces + [.text(":")] + value(credential.password).pieces)
    }

    /// A proxy URL: a password in it as its variable, or `***` when it has none (a password typed
    /// in `set proxy` is no session secret, so the mask would not hide it).
    private mutating func proxyWord(_ url: String) -> ShellWord {
        let word = value(url)
        guard let password = ProxyServer.writtenPassword(Substring(url)), !password.isEmpty,
              word.pieces.contains(where: { $0.literalText.contains(password) }) else { return word }
        maskedSecrets = true
        return value(ProxyServer.masked(Substring(url)))
    }

    /// Notes what masking `text` hid: the references whose values it holds in an encoded form,
    /// and whether anything else was a secret (one with no variable behind it).
    private mutating func noteMasked(_ text: String) {
        var rest = text
        for reference in printer.references {
            let forms = SecretForms.of(reference.value).dropFirst().filter(text.contains)
            guard !forms.isEmpty else { continue }
            if !encodedReferences.contains(reference.environmentName) { encodedReferences.append(reference.environmentName) }
            for form in forms { rest = rest.replacingOccurrences(of: form, with: "") }
        }
        if printer.redaction.mask(rest) != rest { maskedSecrets = true }
    }

    /// The parts of a multipart body, to give one by one; nil for any other body, and in a log.
    private func multipartParts(of request: Request) -> [MultipartParts.Part]? {
        guard running, let body = request.body, let type = request.header("Content-Type") else { return nil }
        return MultipartParts.parse(body, contentType: type)
    }

    /// The file a multipart part was read from: one of the printer's part files with its name and bytes.
    private func file(of part: MultipartParts.Part, named filename: String) throws(CommandPrintingError) -> String {
        let match = printer.partFiles.first { path in
            URL(fileURLWithPath: path).lastPathComponent == filename && FileManager.default.contents(atPath: path) == part.content
        }
        guard let match else {
            if printer.purpose == .log { return filename }
            throw CommandPrintingError(description: "the file of part '\(part.name)' (\(filename)) is not where the call read it")
        }
        return match
    }

    /// The body as text when it can be a command-line argument: UTF-8 without NUL.
    private static func text(of body: Data) -> String? {
        guard !body.contains(0), let text = String(data: body, encoding: .utf8) else { return nil }
        return text
    }
}
