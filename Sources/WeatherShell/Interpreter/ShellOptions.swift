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
    var echo: Echo = .line
    var units: Units = .celsius
    var counterDelay: Duration = .milliseconds(500)
}

/// Durations as the language writes them: `250ms`, `2s`, `1m`, at most a day.
enum DurationText {
    /// The longest duration any setting takes; longer ones (`1e300s`) would overflow timers.
    static let maximumSeconds: Double = 86_400

    static func parse(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)), number >= 0, number.isFinite,
                  number * seconds <= maximumSeconds else { return nil }
            return .milliseconds(Int64((number * seconds * 1000).rounded()))
        }
        return nil
    }
}
