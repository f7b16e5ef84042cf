import Foundation
import Plugins
import Targets

/// Reading the settings words of each plugin into its settings, with a clear error for each mistake.
extension Run {
    func applyLoggerSettings(_ words: inout PluginSettingWords, to logger: inout LoggerSettings) throws {
        while let word = words.next() {
            if let mode = LoggerPlugin.Mode(rawValue: word.text) {
                logger.mode = mode
                continue
            }
            switch word.text {
            case "body":
                let value = try words.value(for: word, "body CHARS or body all", failure)
                if value.text == "all" {
                    logger.bodyLimit = nil
                } else if let limit = Int(value.text), limit >= 0 {
                    logger.bodyLimit = limit
                } else {
                    throw failure("invalid body limit '\(value.text.shortened())'", at: value.word.span,
                                  notes: ["a number of characters such as 4096, 0 to leave bodies out, or all"])
                }
            case "file":
                let value = try words.value(for: word, "file PATH", failure)
                logger.file = try logFile(value)
            case "stderr":
                logger.file = nil
            default:
                throw unknownSetting(word, plugin: .logger)
            }
        }
    }

    func applyRetrySettings(_ words: inout PluginSettingWords, to retry: inout RetrySettings) throws {
        while let word = words.next() {
            switch word.text {
            case "count":
                let value = try words.value(for: word, "count N", failure)
                guard let count = Int(value.text), (0...100).contains(count) else {
                    throw failure("invalid retry count '\(value.text.shortened())'", at: value.word.span,
                                  notes: ["a whole number from 0 to 100"])
                }
                retry.count = count
            case "backoff", "max":
                let value = try words.value(for: word, "\(word.text) DURATION", failure)
                guard let duration = DurationText.parse(value.text) else {
                    throw failure("invalid \(word.text) '\(value.text.shortened())'", at: value.word.span,
                                  notes: ["a duration such as 200ms, 2s or 1m"])
                }
                if word.text == "backoff" { retry.backoff = duration } else { retry.maxDelay = duration }
            case "jitter":
                let value = try words.value(for: word, "jitter FRACTION, as in jitter 0.2 or jitter 20%", failure)
                let text = value.text
                let number = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
                guard let jitter = number, (0...1).contains(jitter) else {
                    throw failure("invalid jitter '\(text.shortened())'", at: value.word.span,
                                  notes: ["a fraction from 0 to 1 such as 0.2, or a percentage such as 20%"])
                }
                retry.jitter = jitter
            case "unsafe":
                retry.unsafe = true
            case "safe":
                retry.unsafe = false
            default:
                throw unknownSetting(word, plugin: .retry)
            }
        }
    }

    func applyAuthSettings(_ words: inout PluginSettingWords, to auth: inout AuthSettings) throws {
        var newCredential = false
        var newScope = false
        while let word = words.next() {
            switch word.text {
            case "bearer":
                let value = try words.value(for: word, "bearer TOKEN", failure)
                guard !value.text.isEmpty else { throw failure("the bearer token is empty", at: value.word.span) }
                auth.credential = .bearer(value.text)
                newCredential = true
            case "basic", "header":
                let usage = word.text == "basic" ? "basic USER:PASSWORD" : "header NAME:VALUE"
                let value = try words.value(for: word, usage, failure)
                let colon = value.text.firstIndex(of: ":")
                let left = colon.map { String(value.text[..<$0]) } ?? value.text
                let right = colon.map { String(value.text[value.text.index(after: $0)...]) }
                guard let right, !left.isEmpty, word.text == "basic" || !left.contains(where: { $0.isWhitespace }) else {
                    throw failure("expected \(usage)", at: value.word.span)
                }
                auth.credential = word.text == "basic" ? .basic(user: left, password: right) : .header(name: left, value: right)
                newCredential = true
            case "host":
                let value = try words.value(for: word, "host HOST, as in host api.example.com", failure)
                guard let host = Self.host(of: value.text) else {
                    throw failure("invalid host '\(value.text.shortened())'", at: value.word.span,
                                  notes: ["a host name such as api.example.com, *.example.com or 127.0.0.1:8080"])
                }
                auth.scope = .host(host)
                newScope = true
            case "everywhere":
                auth.scope = .everywhere
                newScope = true
            default:
                throw unknownSetting(word, plugin: .auth)
            }
        }
        if newCredential, !newScope, let base = options.base, let host = URL(string: base)?.host, !host.isEmpty {
            auth.scope = .host(host)
        }
    }

    /// Before `plugin auth` is on: a credential and where to send it.
    func checkAuthIsComplete(_ auth: AuthSettings, at span: SourceSpan) throws {
        guard auth.credential != nil else {
            throw failure("plugin auth needs a credential", at: span, notes: ["usage: \(PluginSettingWords.usage(.auth))"])
        }
        guard auth.scope == nil else { return }
        var notes = ["add 'host HOST' for the API's host, or 'everywhere' to send it to every host; 'set base' gives a default"]
        let hosts = Array(Set(session.targets.all.compactMap { (try? compiledTarget($0)).flatMap { URL(string: $0.baseURL)?.host } })).sorted()
        if !hosts.isEmpty { notes.append("hosts of declared targets: \(hosts.joined(separator: ", "))") }
        throw failure("plugin auth needs the host to send the credential to", at: span, notes: notes)
    }

    /// Credentials are secrets from now on: `***` wherever the shell shows text. For Basic the whole
    /// `USER:PASSWORD` is one too, as its base64 is what a server echoing the header shows.
    func maskCredential(_ credential: AuthPlugin.Credential?) {
        switch credential {
        case .bearer(let token)?: session.mask.add(token)
        case .basic(let user, let password)?:
            session.mask.add(password)
            session.mask.add(user + ":" + password)
        case .header(_, let value)?: session.mask.add(value)
        case nil: break
        }
    }

    private func logFile(_ value: PluginSettingWords.Item) throws -> LogFile {
        var path = value.text
        if path.hasPrefix("~/") { path = NSHomeDirectory() + path.dropFirst() }
        if !path.hasPrefix("/") { path = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path) }
        do {
            return try LogFile(path: path)
        } catch {
            throw failure(error.description, at: value.word.span)
        }
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

    func unknownSetting(_ word: PluginSettingWords.Item, plugin: PluginName) -> Diagnostic {
        let keywords = PluginSettingWords.keywords(plugin)
        var notes: [String] = []
        if let guess = Suggestion.closest(to: word.text, in: keywords + ["on", "off"]) { notes.append("did you mean '\(guess)'?") }
        notes.append("usage: \(PluginSettingWords.usage(plugin))")
        let what = keywords.isEmpty ? "plugin \(plugin.rawValue) takes only on or off" : "unknown setting '\(word.text.shortened())' for plugin '\(plugin.rawValue)'"
        return failure(what, at: word.word.span, notes: notes)
    }

    /// `failure` as a closure for ``PluginSettingWords/value(for:_:_:)``.
    private var failure: (String, SourceSpan, [String]) -> Diagnostic {
        { message, span, notes in self.failure(message, at: span, notes: notes) }
    }
}
