/// The options of `set` (LANGUAGE.md, "Shell options") and their allowed values.
enum ShellOption: String, CaseIterable {
    case base, timeout, bail, output, color, pager, stub, record, echo, units
    case counterDelay = "counter-delay"
    case history
    case historySize = "history-size"
    case follow, cookies, compress
    case maxBody = "max-body"
    case userAgent = "user-agent"
    case proxy, cacert, insecure, cert, http
    /// An environment of http-client.env.json, REST Client's settings or dotenv files (``EnvironmentFiles``).
    case env

    static let names = allCases.map(\.rawValue)

    /// Words offered by completion after `set OPTION `.
    var choices: [String] {
        switch self {
        case .bail: ["on", "off"]
        case .output: ["pretty", "raw", "quiet", "headers", "all"]
        case .color: ["auto", "on", "off"]
        case .pager: ["auto", "on", "off", "less"]
        case .stub: ["on", "off", "immediate", "300ms"]
        case .record: ["off"]
        case .echo: ["line", "changes", "json", "off"]
        case .units: ["celsius", "fahrenheit"]
        case .timeout: ["10s", "30s", "off"]
        case .counterDelay: ["500ms"]
        case .history: ["on", "off"]
        case .historySize: ["100MB", "10MB", "1GB"]
        case .follow: ["on", "off", "trusted", "5"]
        case .compress, .cookies: ["on", "off"]
        case .maxBody: ["50MB", "off", "1GB"]
        case .userAgent: ["\"wsh/\(Shell.version)\"", "off"]
        case .proxy: ["env", "off", "http://127.0.0.1:3128"]
        case .cacert, .cert: ["off"]
        case .insecure: ["on", "off"]
        case .http: ["auto", "1.1", "2"]
        case .base, .env: []
        }
    }
}
