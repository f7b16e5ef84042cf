import Foundation
import Plugins
import Targets

extension Run {
    /// The auth plugin `-a` (with `-A`) stands for, for this request only, scoped to the URL's
    /// host as `plugin auth` is. The credential joins the session's secrets, so that it is masked
    /// wherever it would be shown (an echoed body, the logger, errors, the call history).
    func requestAuthPlugin(_ statement: RequestStatement, url: String) throws -> AuthPlugin? {
        guard let word = statement.flags.auth else { return nil }
        let text = try expand(word).text
        let credential: AuthPlugin.Credential
        switch statement.flags.authType {
        case .bearer:
            credential = .bearer(text)
            session.mask.add(text)
        case .basic, .digest:
            guard let colon = text.firstIndex(of: ":") else {
                throw failure("-a takes USER:PASSWORD; wsh does not ask for a password", at: word.span,
                              notes: ["a token goes with -A bearer: -A bearer -a TOKEN"])
            }
            let user = String(text[..<colon]), password = String(text[text.index(after: colon)...])
            credential = statement.flags.authType == .basic ? .basic(user: user, password: password) : .digest(user: user, password: password)
            session.mask.add(password)
        }
        let components = URLComponents(string: url)
        let host = (components?.host ?? "") + (components?.port.map { ":\($0)" } ?? "")
        return AuthPlugin(credential, scope: host.isEmpty ? .everywhere : .host(host), report: { Console.standardError.write(line: $0) })
    }

    /// The auth type `-A` names: one given by a variable (`-A $type`) is read now.
    func authType(_ flags: RequestFlags) throws -> RequestFlags.AuthType {
        guard let word = flags.authTypeWord else { return flags.authType }
        guard let type = RequestFlags.AuthType(rawValue: try expand(word).text.lowercased()) else {
            // Not echoed: the variable may hold a credential given to `-A` by mistake.
            throw failure("'-A' takes an auth type", at: word.span, notes: [RequestFlags.authTypesNote])
        }
        return type
    }

    /// `--download` with no `-o`: a file named for the URL's last path segment (else its host) in
    /// the current directory (where `> FILE` writes), with `-1`, `-2`... added when one of that name exists, as HTTPie
    /// names it, the name claimed at once (the answer's Content-Disposition is not waited for: the
    /// file is opened before the request goes, so that the body is written as it arrives).
    func downloadFile(for url: String) -> String {
        let components = URLComponents(string: url)
        let segment = components?.path.split(separator: "/").last.map(String.init)?.removingPercentEncoding ?? ""
        var name = segment.isEmpty || segment == "." || segment == ".." ? (components?.host ?? "download") : segment
        name = name.replacingOccurrences(of: "/", with: "_")
        return FilePaths.claimFreeName(name) { "\(name)-\($0)" }
    }

    /// `-v` and `--offline`: the request as it goes on the wire, HTTPie's way (request line, Host,
    /// headers, a blank line, the body), credentials masked: in the request line too, a secret's
    /// value and the values of query keys named like credentials (`appid=***`), as the logger shows them.
    /// `version` is the one the answer came in (`HTTP/2` over TLS where the server offers it);
    /// `--offline` has none, and shows HTTP/1.1.
    func printRequest(_ request: Request, version: String = "HTTP/1.1") {
        let redaction = redaction.including(secretsOf: request)
        let components = URLComponents(string: request.url)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var lines = ["\(request.method.rawValue) \(redaction.maskedURL(target)) \(version)"]
        if request.header("Host") == nil, let host = components?.host {
            lines.append(redaction.mask("Host: \(host)\(components?.port.map { ":\($0)" } ?? "")"))
        }
        for header in request.headers {
            let masked = redaction.maskedHeader(header)
            lines.append("\(masked.name): \(masked.value)")
        }
        for line in lines { io.out((io.stdoutIsTerminal ? TerminalText.escaped(line) : line) + "\n") }
        io.out("\n")
        guard let body = request.body, !body.isEmpty else { return }
        if let text = String(data: body, encoding: .utf8), !ResponsePrinter.isBinary(body, contentType: request.header("Content-Type")) {
            io.out(redaction.mask(text) + "\n\n")
        } else {
            io.out("[binary body: \(ByteText.text(body.count))]\n\n")
        }
    }
}
