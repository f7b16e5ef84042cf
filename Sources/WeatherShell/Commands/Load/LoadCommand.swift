import Foundation
import ArgumentParser
import Load

/// `wsh load FILE... [TARGET] [options]` as swift-argument-parser reads it.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh load",
        abstract: "Run a .wsh scenario, or call one target, over and over as many users, and report latencies, throughput and errors.",
        discussion: "FILE is a .wsh scenario: each virtual user runs its setup (target, use, set, plugin) once, then its calls, "
            + "captures and expects over and over, with its own variables and cookies. With a TARGET, each iteration is `call TARGET`. "
            + "--users N is the closed model (N users, each calling again when answered); --rate R/s the open model (R arrivals "
            + "a second whatever the answers, so slow answers cannot hide latency). Only loopback hosts unless --allow-host. "
            + "Exit status: 0 all thresholds passed, 4 one failed, 3 an error, 1 a usage error, 130 interrupted (the report of what ran is printed)."
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Users at once, each calling again when answered (default 10).", valueName: "N")) var users: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Arrivals a second, such as 200/s: the open model.", valueName: "R")) var rate: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("How long, such as 30s, 5m or 1h30m.", valueName: "DURATION")) var duration: String = "10s"
    @Option(parsing: .unconditional, help: ArgumentHelp("Reach the users or the rate linearly over this long first.", valueName: "DURATION")) var ramp: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("With --rate: at most this many calls in flight (default 1000); more arrivals are dropped and counted.",
                               valueName: "N")) var connections: Int?
    @Option(help: ArgumentHelp("A pass mark, such as 'p95<200ms', 'errors<1%', 'rps>=100', 'dropped<1%' (repeat).", valueName: "EXPR")) var threshold: [String] = []
    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Load this host too (only loopback otherwise).", valueName: "HOST")) var allowHost: [String] = []
    @Option(name: .customLong("report-json"), help: ArgumentHelp("Write the report as JSON.", valueName: "FILE")) var json: String?
    @Option(name: .customLong("report-html"), help: ArgumentHelp("Write DIR/index.html: plots over time, no network needed.", valueName: "DIR")) var html: String?
    @Option(name: .customLong("env"), help: ArgumentHelp("Choose an environment first (set env NAME).", valueName: "NAME")) var environment: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Split the users (or the rate) over this many processes, one a core: one process uses one core (default 1).",
                               valueName: "N")) var processes: Int = 1
    @Option(help: .hidden) var worker: String?
    @Option(name: .customLong("worker-started"), help: .hidden) var workerStarted: String?

    @Argument(help: ArgumentHelp("The .wsh scenario (or files that declare targets), then the target to call, if any.", valueName: "FILE|TARGET"))
    var inputs: [String] = []

    mutating func validate() throws {
        _ = try options
    }

    var options: LoadOptions {
        get throws {
            var options = LoadOptions()
            options.files = inputs.filter(FuzzCommand.isFile)
            let targets = inputs.filter { !FuzzCommand.isFile($0) }
            guard !options.files.isEmpty || !targets.isEmpty else { throw ValidationError("give a .wsh scenario, or files and a target to call") }
            guard targets.count <= 1 else { throw ValidationError("wsh load calls one target: \(targets.joined(separator: ", ")) are several") }
            options.target = targets.first
            guard let time = DurationText.parse(duration), time > .zero else { throw ValidationError("--duration takes a duration such as 30s, 5m or 1h30m") }
            options.duration = time
            if let ramp {
                guard let time = DurationText.parse(ramp), time >= .zero, time <= options.duration else {
                    throw ValidationError("--ramp takes a duration no longer than --duration, such as 5s")
                }
                options.ramp = time
            }
            if users != nil, rate != nil { throw ValidationError("--users is the closed model and --rate the open one: give one") }
            if let users {
                guard (1...10_000).contains(users) else { throw ValidationError("--users takes a number from 1 to 10000") }
                options.users = users
            }
            if let rate {
                let number = rate.hasSuffix("/s") ? String(rate.dropLast(2)) : rate
                guard let perSecond = Double(number), perSecond > 0, perSecond <= 1_000_000 else {
                    throw ValidationError("--rate takes arrivals a second, such as 200/s")
                }
                options.rate = perSecond
            }
            if connections != nil, rate == nil { throw ValidationError("--connections bounds the open model's calls in flight: give it with --rate") }
            if let connections {
                guard (1...100_000).contains(connections) else { throw ValidationError("--connections takes a number from 1 to 100000") }
                options.connections = connections
            }
            for text in threshold {
                do {
                    options.thresholds.append(try Threshold(text))
                } catch {
                    throw ValidationError(error.description)
                }
            }
            let judgesDrops = options.thresholds.contains { $0.metric == .dropped }
            if judgesDrops, rate == nil { throw ValidationError("dropped<N% judges the open model's arrivals: give it with --rate") }
            // A run that kept up with a few of its arrivals has not passed, whatever its calls say.
            if rate != nil, !options.thresholds.isEmpty, !judgesDrops { options.thresholds += [try? Threshold("dropped<1%")].compactMap { $0 } }
            options.allowedHosts = allowHost.map { $0.lowercased() }
            guard (1...256).contains(processes) else { throw ValidationError("--processes takes a number from 1 to 256") }
            // Each process has at least one user, or one connection of the open model's.
            options.processes = min(processes, options.rate == nil ? options.users : options.connections)
            if let worker {
                let parts = worker.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, (1...256).contains(parts[1]), (1...parts[1]).contains(parts[0]),
                      let started = workerStarted.flatMap({ try? JSONDecoder().decode(ContinuousClock.Instant.self, from: Data($0.utf8)) }) else {
                    throw ValidationError("--worker is for wsh's own processes of --processes")
                }
                guard threshold.isEmpty, json == nil, html == nil, processes == 1 else {
                    throw ValidationError("--worker is for wsh's own processes of --processes, and takes no reports, thresholds or processes")
                }
                options.worker = LoadOptions.Slot(index: parts[0], count: parts[1], started: started)
            }
            options.environment = environment
            if json == "" { throw ValidationError("--report-json takes the file to write, such as load.json") }
            if html == "" { throw ValidationError("--report-html takes the folder to write index.html in, such as report") }
            options.jsonReport = json
            options.htmlReport = html
            return options
        }
    }
}

/// What `wsh load` is told.
struct LoadOptions: Equatable, Sendable {
    var files: [String] = []
    /// The target each iteration calls; nil runs the scenario file.
    var target: String?
    var users = 10
    /// Arrivals a second: the open model.
    var rate: Double?
    var duration: Duration = .seconds(10)
    var ramp: Duration = .zero
    var connections = 1000
    var thresholds: [Threshold] = []
    var allowedHosts: [String] = []
    var jsonReport: String?
    var htmlReport: String?
    /// `--env`, which each worker process chooses too.
    var environment: String?
    /// How many processes run the users.
    var processes = 1
    /// Which of the processes this one is, when it is a worker of another `wsh load`.
    var worker: Slot?

    /// Worker `index` (from 1) of `count`, in a run that started at `started` (its parent's clock).
    struct Slot: Equatable, Sendable {
        var index: Int
        var count: Int
        var started: ContinuousClock.Instant?

        /// The one process of a run without `--processes`.
        static let whole = Slot(index: 1, count: 1)

        /// This slot's part of `total` (connections): an equal part, the first slots one more
        /// while some are left over.
        func share(of total: Int) -> Int {
            total / count + (index <= total % count ? 1 : 0)
        }
    }
}
