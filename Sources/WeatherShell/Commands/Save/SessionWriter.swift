import Foundation
import Targets

/// Writes a session as a `.wsh` file that `source` restores (LANGUAGE.md, "Files, scripts,
/// sessions and packs"): variables, the options that were set, plugins, targets and declared
/// reactors, in that order. No secret is written: an `env` variable is written as its `env NAME`
/// line, a credential by the variables it was given by, and a line that would hold a secret value
/// in any of its forms (``SecretForms``) is left out, with a comment saying what and why.
@ShellActor
struct SessionWriter {
    let run: Run
    /// The directory of the file written: file paths in targets are written relative to it when
    /// they are under it, else absolute.
    let directory: String
    private var text = ""
    /// Whether a blank line goes before the next line: sections are separated by one.
    private var startsSection = false
    /// The variables written so far: a line that refers to a variable is written only when that one is.
    private(set) var saved: Set<String> = []
    /// What the file leaves out (`target k`, `let api_key`), each with a comment saying why: `save` names them.
    private(set) var leftOut: [String] = []

    /// How a file `save` wrote begins: `save` replaces only such a file.
    static let header = "# A wsh session written by save"

    init(run: Run, directory: String) {
        self.run = run
        self.directory = directory
    }

    var session: Session { run.session }

    /// The whole file.
    mutating func write() -> String {
        text = Self.header + ": restore it with 'source FILE', or run it with 'wsh FILE'.\n"
        writeVariables()
        writeOptions()
        writePlugins()
        writeTargets()
        writeReactors()
        return text
    }

    /// Starts a section: a blank line before its first line, when it has one.
    mutating func beginSection() {
        startsSection = true
    }

    /// Whether `line` holds no secret value in any form.
    func isSafe(_ line: String) -> Bool {
        session.mask(line) == line
    }

    /// Adds `line` (one line or several) unless it holds a secret; then leaves `what` out
    /// (``leaveOut(_:because:)``). Says whether the line was added.
    @discardableResult
    mutating func add(_ line: String, leavingOut what: String, because reason: String = "its value holds a secret") -> Bool {
        guard isSafe(line) else {
            leaveOut(what, because: reason)
            return false
        }
        append(line)
        return true
    }

    /// Adds `line` as ``add(_:leavingOut:because:)`` does, unless it holds a credential typed as text,
    /// as the history judges them (``LiteralCredentials``: `set proxy http://u:pw@host`,
    /// `let password = "pw"`, `query appid=k`): then it is written as a comment with `***` for the
    /// credential, under a note naming `what` and saying to give it from a variable, so the file
    /// holds no secret and still shows what to restore. `hidden`, when given, is the line so
    /// hidden. Says whether the line was added.
    @discardableResult
    mutating func addUnlessTyped(_ line: String, hidden: String? = nil, what: String,
                                 because reason: String = "its value holds a secret") -> Bool {
        let hidden = hidden ?? LiteralCredentials.hidden(in: line)
        guard isSafe(line), hidden != line else { return add(line, leavingOut: what, because: reason) }
        leaveOut(what, because: "it holds a credential typed as text; give it from a variable "
                 + "(let NAME = env VAR) and save again. As written, with the credential hidden:")
        for part in hidden.split(separator: "\n", omittingEmptySubsequences: false) { comment(String(part)) }
        return false
    }

    /// A `#` comment, masked like anything else wsh shows; a line break in `note` (a path a
    /// server's answer named) starts another comment line, never a statement.
    mutating func comment(_ note: String) {
        for line in session.mask(note).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            append("# " + line)
        }
    }

    /// Leaves `what` out of the file: a comment `what: not saved, reason`, and `save` names it.
    mutating func leaveOut(_ what: String, because reason: String) {
        leftOut.append(session.mask(what))
        comment(what + ": not saved" + (reason.isEmpty ? "" : ", " + reason))
    }

    private mutating func append(_ line: String) {
        if startsSection { text += "\n" }
        startsSection = false
        text += line + "\n"
    }

    // MARK: - variables

    /// `let` lines in the order the variables were first set; secrets by how they were written.
    private mutating func writeVariables() {
        beginSection()
        for name in session.variables.names {
            guard let variable = session.variables[name], variable.environmentFile == nil else { continue }
            // `--var base-url=...`, a name only a .http file reads: no `let` line can hold it.
            guard Parser.isName(name) else {
                leaveOut(name, because: "a .http file's variable name that a let line cannot hold; give it with --var")
                continue
            }
            guard !variable.value.unicodeScalars.contains("\u{0}") else {
                leaveOut("let \(name)", because: "its value holds a NUL character, which a script cannot write")
                continue
            }
            // The value itself, not only the line: a `$` in a secret is `\$` in the line, which no mask knows.
            guard variable.isSecret || isSafe(variable.value) else {
                leaveOut("let \(name)", because: "its value holds a secret")
                continue
            }
            let written = variable.isSecret ? writeSecret(name, variable)
                : addUnlessTyped("let \(name) = \(variable.savedValue)", what: "let \(name)")
            if written { saved.insert(name) }
        }
    }

    /// `let NAME = env KEY or "demo"` or `let NAME = "Bearer $token"` as written, when that still
    /// gives the value and shows no secret; else `let NAME = env KEY`; else a comment.
    private mutating func writeSecret(_ name: String, _ variable: Variable) -> Bool {
        if let source = variable.secretSource, Self.variableNames(source.expression).allSatisfy(saved.contains),
           (try? run.evaluate(source.expression))?.text == variable.value, isSafe("let \(name) = \(source.text)") {
            return add("let \(name) = \(source.text)", leavingOut: "let \(name)")
        }
        guard let environmentName = variable.environmentName else {
            leaveOut("let \(name)", because: session.commandLineNames.contains(name) ? "it is a secret given on the command line"
                     : "it holds a secret built from values that are not saved")
            return false
        }
        if case .env(_, _?, _, _)? = variable.secretSource?.expression {
            comment("the default of \(name) is not saved: it is a secret; set \(environmentName) before sourcing this file")
        }
        return add("let \(name) = env \(Run.quoted(environmentName))", leavingOut: "let \(name)", because: "")
    }

    private static func variableNames(_ expression: ValueExpression) -> [String] {
        switch expression {
        case .word(let word): word.variableNames
        case .env(let name, let fallback, _, _): name.variableNames + (fallback?.variableNames ?? [])
        case .query: []
        }
    }

    // MARK: - options

    /// `set` lines for the options a `set` changed; not those of `--stub`, which belongs to the
    /// command line, nor `record`, so that replaying a session does not record over its samples,
    /// nor `stub off`, the default, so that `wsh --stub FILE` replays the file offline.
    private mutating func writeOptions() {
        beginSection()
        let options = session.options
        for option in ShellOption.allCases {
            guard let origin = session.optionOrigins[option], origin != "--stub" else { continue }
            if option == .stub, options.stub == .off { continue }
            let value: String?
            switch option {
            case .base:
                writeBase()
                continue
            case .record:
                if let record = options.record {
                    comment("recorded into \(Run.quoted(record)) with set record; not restored, so replaying does not record over the samples")
                }
                continue
            case .proxy:
                // `set proxy http://u:$pw@proxy` as written, when it refers to saved variables that still give it.
                if case .url(let url) = options.transport.proxy,
                   let reference = run.savedReference(options.proxyWord, expandingTo: url, saved: saved), isSafe("set proxy \(reference)") {
                    addUnlessTyped("set proxy \(reference)", what: "set proxy")
                    continue
                }
                value = options.settingValue(option)
            case .pager: value = options.pager.map { $0.isEmpty ? "off" : Run.quoted($0) } ?? "auto"
            default: value = options.settingValue(option)
            }
            if let value {
                addUnlessTyped("set \(option.rawValue) \(value)", what: "set \(option.rawValue)")
            }
        }
    }

    /// `set base $api` as written when it refers to saved variables that still give it, else the URL.
    private mutating func writeBase() {
        guard let base = session.options.base else { return }
        // `set base` keeps the URL a shorthand stands for (`localhost:3000` is http://localhost:3000).
        let taken = { (text: String) -> String in
            if case .success(let url) = RequestURL.resolve(text, base: nil) { url } else { text }
        }
        if let reference = run.savedReference(session.options.baseWord, expandingTo: base, saved: saved, as: taken),
           isSafe("set base \(reference)") {
            addUnlessTyped("set base \(reference)", what: "set base", because: "its URL holds a secret")
        } else {
            addUnlessTyped("set base \(Run.quoted(base))", what: "set base", because: "its URL holds a secret")
        }
    }

    // MARK: - plugins

    /// `plugin order ...` when it was changed, then each plugin a `plugin` statement set: on with
    /// its settings, followed by `plugin NAME off` when it is off (its settings kept for `on`).
    private mutating func writePlugins() {
        beginSection()
        let settings = session.pluginSettings
        if settings.isReordered {
            add("plugin order " + settings.order.joined(separator: " "), leavingOut: "plugin order")
        }
        for name in settings.changedNames {
            guard let plugin = settings[name] else { continue }
            guard let words = plugin.savedSettingsText(saved: saved, in: run) else {
                leaveOut("plugin \(name)", because: "its credential was typed literally or came from variables that are not saved; "
                         + "give it from a variable: let token = env TOKEN; plugin \(name) bearer $token")
                continue
            }
            let defaults = BuiltInPlugins.named(name).flatMap { $0.init().savedSettingsText(saved: saved, in: run) }
            if plugin.enabled || words != defaults {
                let line = "plugin \(name) on" + (words.isEmpty ? "" : " " + words)
                guard add(line, leavingOut: "plugin \(name)", because: "its settings hold a secret") else { continue }
            }
            if !plugin.enabled { add("plugin \(name) off", leavingOut: "plugin \(name) off") }
        }
    }
}
