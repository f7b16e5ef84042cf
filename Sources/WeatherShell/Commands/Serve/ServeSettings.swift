/// How `wsh serve` and `serve start` listen: `--port N --host H --delay D --seed S --cors --quiet`.
public struct ServeSettings: Equatable, Sendable {
    /// The address to listen on; loopback unless given.
    public var host = "127.0.0.1"
    /// Prism's default port; 0 picks a free one.
    public var port = 4010
    /// Latency before each answer; nil follows `set stub DELAY`.
    public var delay: Duration?
    /// CORS headers and preflight answers.
    public var cors = false
    /// No request log.
    public var quiet = false
    /// The seed of answers made up from schemas; nil picks a new one when the server starts.
    public var seed: UInt64?

    /// The defaults: 127.0.0.1:4010, no delay, no CORS, a request log.
    public init() {}

    static let usage = "serve start [--port N] [--host H] [--delay D] [--seed S] [--cors] [--quiet]"

    /// The settings the words after `serve start` give; the error names the word that is wrong.
    static func parse(_ words: [String]) -> Result<ServeSettings, ServeSettingsError> {
        var settings = ServeSettings()
        var index = 0
        func value(_ flag: String) -> Result<String, ServeSettingsError> {
            index += 1
            guard index < words.count else { return .failure(.init(index: index - 1, message: "\(flag) needs a value")) }
            return .success(words[index])
        }
        while index < words.count {
            let flag = words[index]
            switch flag {
            case "--port":
                switch value(flag) {
                case .success(let text):
                    guard let port = Int(text), (0...65535).contains(port) else {
                        return .failure(.init(index: index, message: "a port is a number from 0 to 65535"))
                    }
                    settings.port = port
                case .failure(let error): return .failure(error)
                }
            case "--host":
                switch value(flag) {
                case .success(let text): settings.host = text
                case .failure(let error): return .failure(error)
                }
            case "--delay":
                switch value(flag) {
                case .success(let text):
                    guard let delay = DurationText.parse(text) else {
                        return .failure(.init(index: index, message: "a delay is a duration such as 100ms or 2s"))
                    }
                    settings.delay = delay
                case .failure(let error): return .failure(error)
                }
            case "--seed":
                switch value(flag) {
                case .success(let text):
                    guard let seed = UInt64(text) else {
                        return .failure(.init(index: index, message: "a seed is a whole number from 0 to \(UInt64.max)"))
                    }
                    settings.seed = seed
                case .failure(let error): return .failure(error)
                }
            case "--cors": settings.cors = true
            case "--quiet": settings.quiet = true
            default:
                return .failure(.init(index: index, message: "unknown serve option '\(flag.shortened())'"))
            }
            index += 1
        }
        return .success(settings)
    }
}

/// A wrong word after `serve start` (or on `wsh serve`'s command line).
struct ServeSettingsError: Error {
    let index: Int
    let message: String
}
