import Foundation

extension Run {
    /// Whether stdout gets colour: `set color on`, or `auto` (on at a terminal) when this run's
    /// stdout is the terminal; output held for `| COMMAND` is not, whatever `set output` says.
    var paintsStdout: Bool {
        options.colorEnabled && (options.colorSetting == "on" || io.stdoutIsTerminal)
    }

    func setOption(_ optionWord: Word, _ valueWords: [Word]) throws {
        let name = try expand(optionWord).text
        guard let option = ShellOption(rawValue: name) else {
            throw failure("unknown option '\(name)'", at: optionWord.span, notes: ["options: \(ShellOption.names.joined(separator: ", "))"])
        }
        var valueWords = valueWords
        var stubStatus: Int?
        // `set stub immediate status 404` answers each target's sample of that status.
        if option == .stub, valueWords.count == 3, valueWords[1].bare == "status" {
            guard let code = Int(try expand(valueWords[2]).text), (100...599).contains(code) else {
                throw failure("a sample status is an HTTP status code from 100 to 599", at: valueWords[2].span)
            }
            stubStatus = code
            valueWords.removeLast(2)
        }
        // `set cert FILE key FILE`: a client certificate with its key in a file of its own.
        if option == .cert, valueWords.count == 3, valueWords[1].bare == "key" {
            return try setTransport(option, valueWords[0], key: valueWords[2], optionWord: optionWord)
        }
        if [.proxy, .cacert, .insecure, .cert, .http].contains(option), valueWords.count == 1 {
            return try setTransport(option, valueWords[0], key: nil, optionWord: optionWord)
        }
        guard valueWords.count == 1 else {
            if valueWords.isEmpty { return showOptions([option]) }
            throw failure("'set \(name)' takes one value", at: valueWords[1].span)
        }
        let valueWord = valueWords[0]
        let value = try expand(valueWord).text
        func invalid() -> Diagnostic {
            failure("invalid value '\(value)' for '\(name)'", at: valueWord.span, notes: choicesNote(option))
        }
        switch option {
        case .bail:
            guard let on = Self.onOff(value) else { throw invalid() }
            options.bail = on
        case .output:
            guard let output = ShellOptions.Output(rawValue: value) else { throw invalid() }
            // In an action it lasts for the action, as the action's quiet does.
            if outputOverride != nil { outputOverride = output } else { options.output = output }
        case .color:
            switch value {
            case "auto": options.colorEnabled = io.stdoutIsTerminal && !Environment.noColor
            case "on": options.colorEnabled = true
            case "off": options.colorEnabled = false
            default: throw invalid()
            }
            options.colorSetting = value
            session.echoStyle.value.color = options.colorEnabled
        case .stub:
            if let on = Self.onOff(value) {
                options.stub = on ? .immediate : .off
            } else if value == "immediate" {
                options.stub = .immediate
            } else if let delay = DurationText.parse(value) {
                options.stub = .delayed(delay)
            } else {
                throw invalid()
            }
            options.stubStatus = options.stub == .off ? nil : stubStatus
        case .pager:
            // `on` (or true, yes) is the automatic pager: run as a command, it was not found, and the text was lost.
            switch Self.onOff(value) ?? (value == "auto" ? true : nil) {
            case true?: options.pager = nil
            case false?: options.pager = ""
            case nil:
                guard !value.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid() }
                options.pager = value
            }
        case .record:
            options.record = value == "off" ? nil : try recordDirectory(value, at: valueWord.span)
        case .timeout:
            if value == "off" || value == "none" {
                options.timeout = nil
                session.optionOrigins[option] = nil
                return
            }
            guard let duration = DurationText.parse(value), duration > .zero else { throw invalid() }
            options.timeout = duration
        case .base:
            if value == "off" || value == "none" {
                options.base = nil
                session.optionOrigins[option] = nil
                return
            }
            // The shorthands a request takes: `localhost:8080/v1`, `api.example.com`, `:8080`.
            guard case .success(let url) = RequestURL.resolve(value, base: nil) else {
                throw failure("a base URL starts with http:// or https:// (or is a host such as localhost:8080), or is off",
                              at: valueWord.span)
            }
            options.base = url
            options.baseWord = written(valueWord)
        case .echo:
            guard let echo = ShellOptions.Echo(rawValue: value) else { throw invalid() }
            options.echo = echo
            session.echoStyle.value.mode = echo
        case .units:
            guard let units = ShellOptions.Units(rawValue: value) else { throw invalid() }
            options.units = units
        case .counterDelay:
            guard let delay = DurationText.parse(value) else { throw invalid() }
            options.counterDelay = delay
        case .history:
            guard let on = Self.onOff(value) else { throw invalid() }
            options.history = on
        case .historySize:
            guard let size = SizeText.parse(value), size >= Self.smallestHistorySize else { throw invalid() }
            options.historySize = size
        case .follow where value == "trusted":
            options.follow = ShellOptions.defaultRedirectLimit
            options.followTrusted = true
        case .follow:
            guard let limit = Self.redirectLimit(value) else { throw invalid() }
            options.follow = limit
            options.followTrusted = false
        case .compress:
            guard let on = Self.onOff(value) else { throw invalid() }
            options.compress = on
        case .cookies:
            guard let on = Self.onOff(value) else { throw invalid() }
            options.cookies = on
        case .maxBody:
            if Self.onOff(value) == false {
                options.maxBody = nil
            } else {
                guard let size = SizeText.parse(value), size > 0 else { throw invalid() }
                options.maxBody = size
            }
        case .userAgent:
            options.userAgent = Self.onOff(value) == false || value.isEmpty ? nil : value
        case .proxy, .cacert, .insecure, .cert, .http:
            // Taken by setTransport above; here only with a wrong number of words.
            throw invalid()
        case .env:
            try selectEnvironment(value, directory: environmentDirectory, at: valueWord.span)
        }
        session.optionOrigins[option] = optionOrigin(at: optionWord.span)
    }

    /// `set proxy|cacert|insecure|cert|http`: the session's HTTP client made anew with the setting,
    /// once every file it names is read and checked (an error at the word that named a bad one).
    private func setTransport(_ option: ShellOption, _ valueWord: Word, key keyWord: Word?, optionWord: Word) throws {
        let value = try expand(valueWord).text
        let invalid = failure("invalid value '\(value)' for '\(option.rawValue)'", at: valueWord.span, notes: choicesNote(option))
        var settings = options.transport
        switch option {
        case .proxy:
            switch value {
            case "env": settings.proxy = .environment
            case "off", "none": settings.proxy = .off
            default: settings.proxy = .url(value)
            }
            options.proxyWord = written(valueWord)
        case .cacert: settings.caCertificateFile = value == "off" ? nil : resolvePath(value)
        case .insecure:
            guard let on = Self.onOff(value) else { throw invalid }
            settings.insecure = on
        case .cert:
            settings.clientCertificateFile = value == "off" ? nil : resolvePath(value)
            settings.clientKeyFile = try keyWord.map { resolvePath(try expand($0).text) }
        case .http:
            switch value {
            case "1.1", "1": settings.httpVersion = .http1
            case "2": settings.httpVersion = .http2
            case "auto": settings.httpVersion = .automatic
            default: throw invalid
            }
        default: throw invalid
        }
        let warning: String?
        do {
            warning = try settings.check()
        } catch {
            throw failure(mask(error.message), at: (option == .cert && error.message.contains(" key") ? keyWord : nil)?.span ?? valueWord.span)
        }
        if let warning, !session.warnedInsecure {
            session.warnedInsecure = true
            io.err("warning: \(warning)\n")
        }
        options.transport = settings
        session.useTransport(settings)
        session.optionOrigins[option] = optionOrigin(at: optionWord.span)
    }

    /// `set`: every option, its value, and where that came from.
    func listOptions() {
        showOptions(ShellOption.allCases)
    }

    /// `timeout  10s   (init.wsh:3)`, in columns; a value never set shows what applies and `(default)`.
    private func showOptions(_ shown: [ShellOption]) {
        let rows = shown.map { ($0.rawValue, optionValue($0), session.optionOrigins[$0] ?? "default") }
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let valueWidth = rows.map(\.1.count).max() ?? 0
        for (name, value, origin) in rows {
            io.out(mask("\(name.padding(nameWidth))  \(value.padding(valueWidth))  (\(origin))") + "\n")
        }
    }

    /// The value as `set` takes it, with what applies when it was never set.
    private func optionValue(_ option: ShellOption) -> String {
        switch option {
        case .base: options.base.map { redaction.maskedURL($0) } ?? "none"
        case .output: options.output?.rawValue ?? (io.stdoutIsTerminal ? "pretty (at a terminal)" : "raw (not a terminal)")
        case .color: options.colorSetting + (options.colorSetting == "auto" ? (options.colorEnabled ? " (on)" : " (off)") : "")
        case .pager: options.pager == nil ? "auto (\(Pager.automaticCommand))" : options.settingValue(.pager) ?? ""
        case .record: options.record.map { Self.displayPath($0) } ?? "off"
        case .proxy: redaction.maskedURL(options.settingValue(.proxy) ?? "env")
        default: options.settingValue(option) ?? "none"
        }
    }

    /// Where a `set` statement is: `init.wsh`, `prompt`, or the file and line.
    private func optionOrigin(at span: SourceSpan) -> String {
        if currentFile.name == "<stdin>", mode == .interactive { return "prompt" }
        if currentFile.name == "<command line>" { return "-c" }
        let line = currentFile.location(of: span.start).line
        let name = (currentFile.name as NSString).lastPathComponent
        return "\(name):\(line)"
    }

    private func choicesNote(_ option: ShellOption) -> [String] {
        switch option {
        case .base: ["example: set base https://api.open-meteo.com/v1"]
        case .timeout: ["a duration such as 250ms, 2s or 1m, at most a day, or off (none: no time limit)"]
        case .counterDelay: ["a duration such as 250ms, 2s or 1m, at most a day"]
        case .stub: ["values: off, on (immediate), or a delay such as 300ms, each may end in 'status N'"]
        case .pager: ["values: auto or on (\(Pager.automaticCommand)), off, or a command such as \"less -R\""]
        case .record: ["values: off, or the directory to save answers in: set record fixtures"]
        case .historySize: ["a size such as 100MB, 512KB or 1GB, at least \(SizeText.text(Self.smallestHistorySize))"]
        case .follow: ["values: on (up to \(ShellOptions.defaultRedirectLimit) redirects), off, a count from 0 to \(Self.mostRedirects), "
                       + "or trusted (on, with credentials sent to every host, as curl's --location-trusted)"]
        case .maxBody: ["a size such as 50MB, 512KB or 1GB, or off for no limit"]
        case .proxy: ["values: env (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY), off, or a URL: set proxy http://user:pass@proxy:3128"]
        case .cacert: ["values: a PEM file of certificates to trust besides the system's, or off"]
        case .cert: ["values: a PEM client certificate (with its key, or followed by: key FILE), or off"]
        case .http: ["values: auto (HTTP/2 where TLS offers it), 1.1, 2"]
        default: ["values: \(option.choices.joined(separator: ", "))"]
        }
    }

    /// The most redirects `set follow` and a target's `follow` take.
    nonisolated static let mostRedirects = 100

    /// How many redirects `on`, `off` or a count means, for `set follow` and a target's `follow`;
    /// nil for anything else, or a count past ``mostRedirects``.
    static func redirectLimit(_ text: String) -> Int? {
        if let on = onOff(text) { return on ? ShellOptions.defaultRedirectLimit : 0 }
        guard let count = Int(text), (0...mostRedirects).contains(count) else { return nil }
        return count
    }

    static func onOff(_ text: String) -> Bool? {
        switch text {
        case "on", "true", "yes": true
        case "off", "false", "no": false
        default: nil
        }
    }
}

/// Facts from the environment that change how wsh shows things.
enum Environment {
    static var noColor: Bool { getenv("NO_COLOR").map { $0.pointee != 0 } ?? false }

    /// `$XDG_CONFIG_HOME`, else `$HOME/.config`: where init.wsh and packs/ live.
    static var configDirectory: String {
        baseDirectory("XDG_CONFIG_HOME") ?? (home + "/.config")
    }

    /// `$XDG_STATE_HOME`, else `$HOME/.local/state`: where history and the call history live.
    static var stateDirectory: String {
        baseDirectory("XDG_STATE_HOME") ?? (home + "/.local/state")
    }

    /// An XDG base directory variable's value when it is an absolute path: the spec says a
    /// relative one is invalid and ignored (else each working directory would get its own).
    static func baseDirectory(_ name: String, in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// `$HOME`, as every program reads it; the account's home directory only when it is unset.
    static var home: String {
        variable("HOME") ?? NSHomeDirectory()
    }

    /// `path` with a leading `~` (`~` alone, or `~/...`) as `$HOME`, as sh expands it.
    static func expandingHome(_ path: String) -> String {
        path == "~" || path.hasPrefix("~/") ? home + path.dropFirst() : path
    }

    private static func variable(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
