import Foundation
import Targets

extension BuiltInReactor {
    static let weather = BuiltInReactor(
        name: "weather", usage: "weather current [CITY | LAT LON] | forecast [HOURS] | use open-meteo|openweathermap",
        summary: "the weather reactor", actions: ["current", "forecast", "use"],
        argumentCompletions: ["use": WeatherSource.allCases.map(\.rawValue)],
        make: { WeatherCommand(run: $0) })
}

/// `weather current [CITY | LAT LON]`, `weather forecast [HOURS]`, `weather use SOURCE`, `weather`.
@ShellActor
final class WeatherCommand: ShellReactor {
    let name = BuiltInReactor.weather.name
    let actionNames = BuiltInReactor.weather.actions
    private let fahrenheit: SharedValue<Bool>
    private let stubbed: SharedValue<Bool>
    private let store: EchoingStore<WeatherReactor>

    init(run: Run) {
        fahrenheit = SharedValue(run.options.units == .fahrenheit)
        stubbed = SharedValue(run.options.stub != .off)
        let service = WeatherService(call: { target, arguments in
            guard let run = WeatherSender.run?.run else { throw CancellationError() }
            return try await run.callForReactor(target, arguments)
        }, fahrenheit: fahrenheit, stubbed: stubbed)
        store = EchoingStore(reactor: WeatherReactor(service: service), echo: StateEcho(name: name, run: run))
    }

    func currentFields() async -> [(name: String, value: EchoValue)] { await store.fields }

    func send(_ arguments: [String], words: [Word], from run: Run) async throws {
        store.echoes(to: run)
        fahrenheit.value = run.options.units == .fahrenheit
        stubbed.value = run.options.stub != .off
        let state = await store.store.currentState
        guard let actionName = arguments.first else { throw run.reactorUsage(self, words: words) }
        let rest = Array(arguments.dropFirst())
        let action: WeatherReactor.Action
        switch actionName {
        case "current":
            let query: PlaceQuery
            if rest.isEmpty {
                query = .place(state.place)
            } else if rest.count == 2, let lat = Self.decimal(rest[0]), let lon = Self.decimal(rest[1]) {
                guard Self.isWithin(lat, 90), Self.isWithin(lon, 180) else {
                    throw run.failure("a coordinate is LAT LON with -90 <= LAT <= 90 and -180 <= LON <= 180", at: words[2].span)
                }
                query = .place(Place(name: "", latitude: lat, longitude: lon))
            } else {
                query = .city(rest.joined(separator: " "))
            }
            action = .current(place: query, source: state.source)
        case "forecast":
            guard rest.count <= 1, let hours = rest.isEmpty ? 4 : Int(rest[0]), (0...48).contains(hours) else {
                throw run.failure("usage: weather forecast [HOURS], with HOURS from 0 to 48", at: (words.count > 2 ? words[2] : words[1]).span)
            }
            action = .forecast(hours: hours, place: state.place, source: state.source)
        case "use":
            guard rest.count == 1, let source = WeatherSource(rawValue: rest[0]) else {
                throw run.failure("usage: weather use open-meteo|openweathermap", at: (words.count > 2 ? words[2] : words[1]).span,
                                          notes: WeatherSource.allCases.map(\.rawValue).filter { Suggestion.editDistance(Array($0), Array(rest.first ?? "")) <= 3 }.map { "did you mean '\($0)'?" })
            }
            try await run.ensureTargets(for: source, at: words[2].span)
            action = .use(source)
        default:
            throw run.reactorUsage(self, words: words)
        }
        if case .use = action {} else { try await run.ensureTargets(for: state.source, at: words[1].span) }
        do {
            try await WeatherSender.$run.withValue(WeakRun(run)) {
                try await store.send(action, cancelsInFlight: true, onInterrupt: .interrupted)
            }
        } catch let error as WeatherError {
            // Offline (the README's first step on a train): the samples answer the same commands.
            var notes = error.unreachable && run.options.stub == .off
                ? ["offline? 'wsh --stub' (or 'set stub on' here) answers from the packs' sample data, with no network"] : []
            notes += run.ownWeatherTargetNotes(for: state.source, failed: error.target)
            throw run.failure("weather \(actionName): \(run.mask(error.description))", at: words[1].span, notes: notes)
        }
    }
}

extension WeatherCommand {
    /// A coordinate typed as a decimal number (`37.5`, `-0.13`, `+1`, `.5`): the text to send, every
    /// digit kept (`+` taken off, which a query reads as a space); nil for any other word, a city's
    /// (`1e3`, `0x10`, `nan` are not coordinates).
    nonisolated static func decimal(_ word: String) -> String? {
        guard word.allSatisfy({ "0123456789.+-".contains($0) }), let value = Double(word), value.isFinite else { return nil }
        return EchoValue.jsonNumber(word)
    }

    /// Whether a decimal as it is sent lies from -`limit` to `limit`, read exactly: a Double rounds
    /// `90.0000000000000001` to 90, and the text is what goes out.
    nonisolated static func isWithin(_ text: String, _ limit: Int) -> Bool {
        guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return false }
        return number >= Decimal(-limit) && number <= Decimal(limit)
    }
}

/// The run a weather action was sent from: its calls become that run's last response. Task-local,
/// so the store's tasks for the action (which inherit it) call through their own sender even when
/// another run sends the next action.
enum WeatherSender {
    @TaskLocal static var run: WeakRun?
}

/// A run held without keeping it alive: a weather action may outlive the run that sent it.
struct WeakRun: Sendable {
    weak var run: Run?

    init(_ run: Run) { self.run = run }
}

extension Run {
    /// Loads the targets the weather commands of `source` call that are missing, from their packs;
    /// the ones declared already (yours, or a pack's) stay.
    func ensureTargets(for source: WeatherSource, at span: SourceSpan) async throws {
        let previous = options.bail
        defer { options.bail = previous }
        for (pack, targets) in source.packs {
            let missing = Set(targets.filter { session.targets[$0] == nil })
            guard !missing.isEmpty else { continue }
            let word = Word(parts: [WordPart(content: .literal(pack), quoted: false, span: span)], span: span)
            try await usePack(word, onlyTargets: missing)
        }
    }

    /// Why a failed weather command called a target of the user's own (a `target current` for
    /// their API): the commands call their targets by name, and a declared one replaces the pack's.
    func ownWeatherTargetNotes(for source: WeatherSource, failed: String? = nil) -> [String] {
        source.packs.compactMap { pack, targets in
            // A call that failed is the one target to name: another of the user's had no part in it.
            let own = targets.filter { session.targets[$0].map { !$0.fromPack } ?? false }.filter { failed == nil || $0 == failed }
            guard !own.isEmpty else { return nil }
            let quoted = own.map { "'\($0)'" }.joined(separator: ", ")
            return "the weather commands call the targets \(targets.joined(separator: ", ")) by name, and \(quoted) \(own.count == 1 ? "is" : "are") yours, "
                + "not the \(pack) pack's ('use \(pack)' declares the pack's again)"
        }
    }

    /// Calls a target for a reactor: the body becomes the last response; errors become messages.
    func callForReactor(_ name: String, _ arguments: CallArguments) async throws -> JSONValue {
        guard let declared = session.targets[name] else { throw WeatherError(description: "no target '\(name)': declare it or 'use' its pack") }
        if let missing = missingSample(declared) { throw WeatherError(description: missing) }
        do {
            return try await send(try compiledTarget(declared), arguments).json()
        } catch let error as ProviderError {
            throw WeatherError(description: error.description(masking: redaction), unreachable: error.isConnectionFailure, target: name)
        }
    }
}
