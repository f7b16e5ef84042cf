import Foundation
import Plugins
import Targets

/// `plugin auth [on] bearer TOKEN | basic USER:PASS | digest USER:PASS | header NAME:VALUE [host HOST | everywhere]`.
struct AuthShellPlugin: ShellPlugin {
    static let name = "auth"
    static let usage = "plugin auth [on] bearer TOKEN | basic USER:PASS | digest USER:PASS | header NAME:VALUE [host HOST | everywhere]"
    static let keywords = ["bearer", "basic", "digest", "header", "host", "everywhere"]
    static let valueCompletions: [String: PluginValueCompletion] = [
        "host": .hosts, "bearer": .words([]), "basic": .words([]), "digest": .words([]), "header": .words([]),
    ]

    var enabled = false
    var credential: AuthPlugin.Credential?
    var scope: AuthPlugin.Scope?
    /// The credential's word as written (`$token`), for `save`.
    var credentialWord: WrittenWord?
    /// The Digest nonces answered with this credential: the plugin is made anew when the session's
    /// secrets change, and a nonce answered before must be answered with the next count.
    private var digestSession = DigestSession()

    @ShellActor mutating func apply(_ words: inout PluginSettingWords, in run: Run) throws {
        var newCredential = false
        var newScope = false
        while let word = words.next() {
            // An authentication scheme's name is case-insensitive (RFC 9110, 11.1): `Bearer`, as the header writes it.
            let scheme = word.text.lowercased()
            let keyword = ["bearer", "basic", "digest"].contains(scheme) ? scheme : word.text
            switch keyword {
            case "bearer":
                let value = try words.value(for: word, "bearer TOKEN", in: run)
                guard !value.text.isEmpty else { throw run.failure("the bearer token is empty", at: value.word.span) }
                credential = .bearer(value.text)
                credentialWord = run.written(value.word)
                newCredential = true
            case "basic", "digest", "header":
                let isHeader = keyword == "header"
                let usage = isHeader ? "header NAME:VALUE" : keyword + " USER:PASSWORD"
                let value = try words.value(for: word, usage, in: run)
                let colon = value.text.firstIndex(of: ":")
                let left = colon.map { String(value.text[..<$0]) } ?? value.text
                let right = colon.map { String(value.text[value.text.index(after: $0)...]) }
                guard let right, !left.isEmpty, !isHeader || !left.contains(where: { $0.isWhitespace }) else {
                    throw run.failure("expected \(usage)", at: value.word.span)
                }
                // `basic alice: pw`, as a header is written: the next word is the credential, never
                // to be quoted as a setting. An empty one alone (`basic sk_test_123:`) is Stripe's.
                if right.isEmpty, let next = words.upcoming, !Self.keywords.contains(next.text) {
                    throw run.failure("'\(keyword)' takes \(usage) in one word: a blank after ':' leaves it empty", at: value.word.span,
                                      notes: ["quote a value with blanks: \(keyword) \"\(isHeader ? "NAME:VALUE" : "USER:PASSWORD")\""])
                }
                credential = switch keyword {
                case "basic": .basic(user: left, password: right)
                case "digest": .digest(user: left, password: right)
                default: .header(name: left, value: right)
                }
                credentialWord = run.written(value.word)
                newCredential = true
            case "host":
                let value = try words.value(for: word, "host HOST, as in host api.example.com", in: run)
                guard let host = Self.host(of: value.text) else {
                    throw run.failure("invalid host '\(value.text.shortened())'", at: value.word.span,
                                      notes: ["a host name such as api.example.com, *.example.com or 127.0.0.1:8080"])
                }
                scope = .host(host)
                newScope = true
            case "everywhere":
                scope = .everywhere
                newScope = true
            default:
                throw words.unknownSetting(word, in: run)
            }
        }
        if newCredential, !newScope, let base = run.options.base, let host = URL(string: base)?.host, !host.isEmpty {
            scope = .host(host)
        }
        if newCredential { digestSession = DigestSession() }
    }

    /// Before it is on: a credential and where to send it.
    @ShellActor func checkComplete(at span: SourceSpan, in run: Run) throws {
        guard credential != nil else {
            throw run.failure("plugin auth needs a credential", at: span, notes: ["usage: \(Self.usage)"])
        }
        guard scope == nil else { return }
        var notes = ["add 'host HOST' for the API's host, or 'everywhere' to send it to every host; 'set base' gives a default"]
        // Compiled now, not read from completion's cache: a base from a variable may have changed since.
        let hosts = Array(Set(run.session.targets.all.compactMap { (try? run.compiledTarget($0)).flatMap { URL(string: $0.baseURL)?.host } })).sorted()
        if !hosts.isEmpty { notes.append("hosts of declared targets: \(hosts.joined(separator: ", "))") }
        throw run.failure("plugin auth needs the host to send the credential to", at: span, notes: notes)
    }

    /// For Basic the whole `USER:PASSWORD` is a secret too, as its base64 is what a server
    /// echoing the header shows; for Digest too, alike.
    var secrets: [String] {
        switch credential {
        case .bearer(let token)?: [token]
        case .basic(let user, let password)?: [password, user + ":" + password]
        case .digest(let user, let password)?: [password, user + ":" + password]
        case .header(_, let value)?: [value]
        case nil: []
        }
    }

    var settingsText: String {
        var words: [String] = []
        switch credential {
        case .bearer?: words += ["bearer", "***"]
        case .basic(let user, _)?: words += ["basic", Run.quoted(user) + ":***"]
        case .digest(let user, _)?: words += ["digest", Run.quoted(user) + ":***"]
        case .header(let header, _)?: words += ["header", header + ":***"]
        case nil: words.append("(no credential)")
        }
        switch scope {
        case .host(let host)?: words += ["host", host]
        case .everywhere?: words.append("everywhere")
        case nil: break
        }
        return words.joined(separator: " ")
    }

    /// The credential by the variables it was given by (`bearer $token host api.example.com`);
    /// nil when it was typed literally, or its variables are not saved or have changed since.
    @ShellActor func savedSettingsText(saved: Set<String>, in run: Run) -> String? {
        var words: [String] = []
        if let credential {
            let (keyword, value) = switch credential {
            case .bearer(let token): ("bearer", token)
            case .basic(let user, let password): ("basic", user + ":" + password)
            case .digest(let user, let password): ("digest", user + ":" + password)
            case .header(let name, let value): ("header", name + ":" + value)
            }
            guard let text = run.savedReference(credentialWord, expandingTo: value, saved: saved) else { return nil }
            words += [keyword, text]
        }
        switch scope {
        case .host(let host)?: words += ["host", host]
        case .everywhere?: words.append("everywhere")
        case nil: break
        }
        return words.joined(separator: " ")
    }

    func makePlugin(redaction: Redaction, report: @escaping OutputClosure) -> (any Plugin)? {
        guard enabled, let credential, let scope else { return nil }
        return AuthPlugin(credential, scope: scope, digestSession: digestSession, report: report)
    }

    /// `api.example.com`, `*.example.com`, `host:8080`; the host of a URL when one is given.
    static func host(of text: String) -> String? {
        var host = text.lowercased()
        if host.contains("://") {
            guard let url = URL(string: host), let name = url.host else { return nil }
            host = name + (url.port.map { ":\($0)" } ?? "")
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:*[]_")
        guard !host.isEmpty, host.allSatisfy({ allowed.contains($0) }) else { return nil }
        return host
    }
}
