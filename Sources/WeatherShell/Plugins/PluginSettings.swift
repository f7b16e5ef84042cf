import Foundation
import Plugins
import Targets

/// The built-in plugins, by the name `plugin` takes, in their default order.
enum PluginName: String, CaseIterable {
    case logger, loading, retry, auth

    static let names = allCases.map(\.rawValue)
}

/// `plugin logger ...`.
struct LoggerSettings {
    var enabled = false
    var mode: LoggerPlugin.Mode = .summary
    /// Characters of a body shown in verbose mode; `nil` for all.
    var bodyLimit: Int? = LoggerPlugin.defaultBodyLimit
    /// The file the log goes to instead of stderr.
    var file: LogFile?
}

/// `plugin retry ...`; the defaults are ``RetryPlugin/default``'s.
struct RetrySettings {
    var enabled = false
    var count = RetryPlugin.default.count
    var backoff = RetryPlugin.default.backoff
    var maxDelay = RetryPlugin.default.maxDelay
    var jitter = RetryPlugin.default.jitter
    var unsafe = false
}

/// `plugin auth ...`.
struct AuthSettings {
    var enabled = false
    var credential: AuthPlugin.Credential?
    var scope: AuthPlugin.Scope?
}

/// The session's plugins: which are on, how each is tuned, and their order. Turning a plugin off
/// keeps its settings, so `plugin NAME on` brings it back as it was.
struct PluginSettings {
    var order: [PluginName] = PluginName.allCases
    var logger = LoggerSettings()
    var loading = false
    var retry = RetrySettings()
    var auth = AuthSettings()
    /// One spinner for the whole session, so that calls share the status line.
    let loadingPlugin = LoadingPlugin()

    func isOn(_ name: PluginName) -> Bool {
        switch name {
        case .logger: logger.enabled
        case .loading: loading
        case .retry: retry.enabled
        case .auth: auth.enabled
        }
    }

    /// The plugins in effect, in order; secrets in what they print are masked by `redaction`.
    /// The retry plugin is there even when off, with no retries of its own, so that a target's
    /// `retry N` still retries N times with the default backoff.
    func plugins(redaction: Redaction) -> [any Plugin] {
        let report: OutputClosure = { Console.standardError.write(line: $0) }
        return order.compactMap { name -> (any Plugin)? in
            switch name {
            case .logger:
                guard logger.enabled else { return nil }
                return LoggerPlugin(mode: logger.mode, bodyLimit: logger.bodyLimit, redaction: redaction,
                                    output: logger.file?.output ?? report)
            case .loading:
                return loading ? loadingPlugin : nil
            case .retry:
                guard retry.enabled else { return RetryPlugin(count: 0, redaction: redaction, report: report) }
                return RetryPlugin(count: retry.count, backoff: retry.backoff, maxDelay: retry.maxDelay,
                                   jitter: retry.jitter, retriesUnsafeMethods: retry.unsafe,
                                   redaction: redaction, report: report)
            case .auth:
                guard auth.enabled, let credential = auth.credential, let scope = auth.scope else { return nil }
                return AuthPlugin(credential, scope: scope)
            }
        }
    }

    /// The settings of one plugin as `plugin NAME on ...` takes them; credentials as `***`.
    @ShellActor func settingsText(_ name: PluginName) -> String {
        var words: [String] = []
        switch name {
        case .logger:
            words.append(logger.mode.rawValue)
            if logger.mode == .verbose { words += ["body", logger.bodyLimit.map(String.init) ?? "all"] }
            if let file = logger.file { words += ["file", Run.quoted(file.path)] }
        case .loading:
            break
        case .retry:
            words += ["count", "\(retry.count)", "backoff", retry.backoff.settingText,
                      "max", retry.maxDelay.settingText, "jitter", "\(Int((retry.jitter * 100).rounded()))%"]
            if retry.unsafe { words.append("unsafe") }
        case .auth:
            switch auth.credential {
            case .bearer?: words += ["bearer", "***"]
            case .basic(let user, _)?: words += ["basic", Run.quoted(user) + ":***"]
            case .header(let header, _)?: words += ["header", header + ":***"]
            case nil: words.append("(no credential)")
            }
            switch auth.scope {
            case .host(let host)?: words += ["host", host]
            case .everywhere?: words.append("everywhere")
            case nil: break
            }
        }
        return words.joined(separator: " ")
    }
}
