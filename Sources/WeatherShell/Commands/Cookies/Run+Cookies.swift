import Foundation
import Plugins
import Targets

extension Run {
    /// `cookies` lists the session's cookie jar; `cookies clear` empties it; `cookies save FILE` and
    /// `cookies load FILE` write and read curl's Netscape cookie file (`curl -c` / `-b`).
    func cookies(_ arguments: [Word], command: Word) throws {
        let usage = "usage: cookies [clear | save FILE | load FILE]"
        let jar = session.cookieJar
        guard let action = arguments.first else { return listCookies(jar.unexpired()) }
        switch action.bare {
        case "clear" where arguments.count == 1:
            jar.clear()
        case "save" where arguments.count == 2, "load" where arguments.count == 2:
            let path = resolvePath(try expand(arguments[1]).text)
            if action.bare == "save" {
                if let reason = BodyFile.write(Data(jar.netscapeText().utf8), to: path) {
                    throw failure("cannot write '\(Self.displayPath(path))': \(reason)", at: arguments[1].span)
                }
            } else {
                let text = String(decoding: try readFile(path, at: arguments[1].span), as: UTF8.self)
                let refused: [String]
                do {
                    refused = try jar.load(netscapeText: text, source: Self.displayPath(path))
                } catch {
                    throw failure(mask(error.description), at: arguments[1].span)
                }
                if !refused.isEmpty {
                    let domains = Array(Set(refused)).sorted().joined(separator: ", ")
                    io.err("note: left out cookies for every site under \(domains): a public suffix takes none (as Set-Cookie)\n")
                }
            }
        default:
            throw failure(usage, at: arguments.count > 1 && ["clear"].contains(action.bare ?? "") ? arguments[1].span : action.span)
        }
    }

    /// One cookie a line, in columns: domain (`.example.com` when subdomains match too), path,
    /// name=value (a value named like a secret, or holding one, as ***), expiry and flags.
    private func listCookies(_ cookies: [Cookie]) {
        guard !cookies.isEmpty else { return io.out("(no cookies)\n") }
        let formatter = ISO8601DateFormatter()
        let rows = cookies.map { cookie -> [String] in
            let value = redaction.isSensitiveCookieName(cookie.name) ? "***" : mask(cookie.value)
            var flags: [String] = []
            if cookie.secure { flags.append("secure") }
            if cookie.httpOnly { flags.append("httponly") }
            let domain: String = (cookie.hostOnly ? "" : ".") + cookie.domain
            let expiry: String = cookie.expires.map { formatter.string(from: $0) } ?? "session"
            let row: [String] = [domain, cookie.path, cookie.name + "=" + value, expiry, flags.joined(separator: ",")]
            return row.map { io.stdoutIsTerminal ? TerminalText.escaped($0) : $0 }
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<4).map { row[$0].padding(widths[$0]) } + [row[4]]
            let line: String = padded.joined(separator: "  ")
            io.out(line.trimmingCharacters(in: CharacterSet.whitespaces) + "\n")
        }
    }
}

/// `cookies`: list the session's cookies, empty the jar, or write and read curl's cookie file
struct CookiesCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "cookies", usage: "cookies [clear | save FILE | load FILE]",
            summary: "list the session's cookies, empty the jar, or write and read curl's cookie file")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.count == 1 { return ["clear", "save", "load"] }
        if previous.count == 2, ["save", "load"].contains(previous[1]) { return Completion.paths(word, directory: session.directory) }
        return []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.cookies(arguments, command: command)
    }
}
