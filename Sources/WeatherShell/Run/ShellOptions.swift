import CallHistory
import Targets

/// The values of `set` options for one session.
struct ShellOptions {
    enum Output: String { case pretty, raw, quiet, headers, all }
    enum Echo: String { case line, changes, json, off }
    enum Units: String { case celsius, fahrenheit }
    enum Stub: Equatable { case off, immediate, delayed(Duration) }

    var bail: Bool
    /// nil: pretty at a terminal, raw otherwise.
    var output: Output?
    var colorSetting = "auto"
    var colorEnabled: Bool
    var stub: Stub = .off
    /// `set pager`: nil is auto ($PAGER, else less -FRX), "" is off, else the command.
    var pager: String?
    /// Which sample a stub answers with, by status (`set stub immediate status 404`); nil: each target's first.
    var stubStatus: Int?
    /// `set record DIR`: the absolute directory live answers are saved in as samples; nil: off.
    var record: String?
    var timeout: Duration?
    var base: String?
    /// The `set base` word as written, so that `save` can write `$api` rather than a secret it holds.
    var baseWord: WrittenWord?
    /// The `set proxy URL` word as written, so that `save` can write `http://u:$pw@proxy` rather than the password.
    var proxyWord: WrittenWord?
    var echo: Echo = .line
    var units: Units = .celsius
    var counterDelay: Duration = .milliseconds(500)
    /// `set history`: whether calls are recorded in the call history.
    var history = true
    /// `set history-size`: past this many bytes the call history drops its oldest calls.
    var historySize = CallLog.defaultSizeLimit
    /// `set follow`: how many redirects a call follows; 0 returns the redirect.
    var follow = ShellOptions.defaultRedirectLimit
    /// `set follow trusted`: credentials go to every host of a redirect chain (curl's `--location-trusted`).
    var followTrusted = false
    /// `set env`: the environment chosen, by name.
    var environment: String?
    /// `set cookies`: send and keep cookies in the session's jar.
    var cookies = true
    /// `set compress`: ask for gzip, deflate and br, and decode them.
    var compress = true
    /// `set max-body`: the largest answer body kept in memory; nil is off.
    var maxBody: Int? = NetworkTransport.defaultBodyLimit
    /// `set user-agent`: nil sends none.
    var userAgent: String? = ShellOptions.defaultUserAgent {
        didSet { defaultHeaders = Self.defaultHeaders(userAgent: userAgent) }
    }
    /// `set proxy`, `set cacert`, `set insecure`, `set cert`, `set http`: the HTTP client's own settings.
    var transport = TransportSettings()
    /// The headers every request starts with, made once for every call.
    private(set) var defaultHeaders = ShellOptions.defaultHeaders(userAgent: ShellOptions.defaultUserAgent)

    static let defaultRedirectLimit = 10
    static let defaultUserAgent = "wsh/\(Shell.version)"

    /// `User-Agent` (when there is one) and curl's `Accept: */*`.
    private static func defaultHeaders(userAgent: String?) -> [Header] {
        (userAgent.map { [Header(name: "User-Agent", value: $0)] } ?? []) + [Header(name: "Accept", value: "*/*")]
    }
}

/// Sizes as the language writes them: `100MB`, `512KB`, `1GB`, `65536` (bytes); units of 1024.
enum SizeText {
    static let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]

    static func parse(_ text: String) -> Int? {
        let upper = text.uppercased()
        let (suffix, scale) = units.first { upper.hasSuffix($0.0) } ?? ("", 1)
        guard let number = Double(upper.dropLast(suffix.count)), number >= 0, number.isFinite,
              number * Double(scale) < Double(1 << 50) else { return nil }
        return Int((number * Double(scale)).rounded())
    }

    /// `100MB`, `64KB`, or bytes when no unit divides it.
    static func text(_ bytes: Int) -> String {
        let (suffix, scale) = units.first { bytes >= $0.1 && bytes % $0.1 == 0 } ?? ("B", 1)
        return "\(bytes / scale)\(suffix)"
    }
}

extension ShellOptions {
    /// The value as `set OPTION` takes it, for `set` listing and `save`; nil when the option holds
    /// none (base, timeout, output or record never set).
    func settingValue(_ option: ShellOption) -> String? {
        switch option {
        case .base: base
        case .timeout: timeout?.settingText
        case .bail: bail ? "on" : "off"
        case .output: output?.rawValue
        case .color: colorSetting
        case .pager: pager.map { $0.isEmpty ? "off" : $0 } ?? "auto"
        case .stub:
            switch stub {
            case .off: "off"
            case .immediate: "immediate" + (stubStatus.map { " status \($0)" } ?? "")
            case .delayed(let delay): delay.settingText + (stubStatus.map { " status \($0)" } ?? "")
            }
        case .record: record
        case .echo: echo.rawValue
        case .units: units.rawValue
        case .counterDelay: counterDelay.settingText
        case .history: history ? "on" : "off"
        case .historySize: SizeText.text(historySize)
        case .follow: followTrusted ? "trusted" : follow == 0 ? "off" : follow == Self.defaultRedirectLimit ? "on" : String(follow)
        case .compress: compress ? "on" : "off"
        case .cookies: cookies ? "on" : "off"
        case .maxBody: maxBody.map { SizeText.text($0) } ?? "off"
        case .userAgent: userAgent.map { Run.quoted($0) } ?? "off"
        case .proxy:
            switch transport.proxy {
            case .environment: "env"
            case .off: "off"
            case .url(let url): Run.quoted(url)
            }
        case .env: environment
        case .cacert: transport.caCertificateFile.map { Run.quoted($0) } ?? "off"
        case .insecure: transport.insecure ? "on" : "off"
        case .cert: transport.clientCertificateFile.map { file in
            Run.quoted(file) + (transport.clientKeyFile.map { " key " + Run.quoted($0) } ?? "")
        } ?? "off"
        case .http:
            switch transport.httpVersion {
            case .http1: "1.1"
            case .http2: "2"
            case .automatic: "auto"
            }
        }
    }
}
