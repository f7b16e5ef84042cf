import Foundation
import MockServer
import NIOCore
import NIOPosix

extension Shell {
    /// `wsh serve FILE...`: runs the files (their declarations and settings; a `.json` file is a
    /// Postman collection, read as `use postman` reads it; their calls to this machine only, and
    /// reads only), then answers their targets until
    /// Ctrl-C, which stops the server and exits 0.
    static func serveFiles(_ files: [String], _ settings: ServeSettings, _ run: Run, _ interrupts: InterruptHandler) async -> Int32 {
        // A mock loads files for their targets: a call among them reads this machine at most,
        // and writes nothing anywhere.
        let callGuard = AllowedHostsTransport(allowed: [], action: "call",
                                              writeRefusal: "wsh serve sends only GET, HEAD and OPTIONS, to this machine, while it loads its files",
                                              otherHostAdvice: "`wsh serve --stub` answers its files' calls from their samples")
        if let code = await loadFiles(files, run, interrupts, command: "serve", holdingCallsTo: callGuard) { return code }
        let served = await outcome(interrupts) {
            let server: MockServer
            do {
                server = try await run.startServing(settings, at: nil, group: MultiThreadedEventLoopGroup(numberOfThreads: usableCPUs))
            } catch let diagnostic as Diagnostic {
                try run.report(diagnostic)
                return
            }
            let (routes, skipped) = run.servedRoutes()
            run.io.err("wsh serve: \(routes.routes.count) route\(routes.routes.count == 1 ? "" : "s") at \(server.url) (Ctrl-C stops)\n")
            run.io.err(ServedRouteList.text(routes.routes, skipped: skipped))
            run.io.flush()
            do {
                while true { try await Task.sleep(for: .seconds(3600)) }
            } catch {
                await server.stop()
                run.io.err("wsh serve: stopped\n")
            }
        }
        switch served {
        case .completed, .failure(.interrupted): return finalCode(run, 0)
        case .exit(let code): return finalCode(run, code)
        case .failure(let kind): return finalCode(run, kind.exitCode)
        }
    }
}

extension Shell {
    /// The files of `wsh serve` and `wsh fuzz`, loaded in order: a `.wsh` file run (its
    /// declarations and settings), an OpenAPI document (`.yaml`, `.yml`, or `.json` with an
    /// `openapi` member) read as `use openapi` reads it, another `.json` file read as a Postman collection (`use postman`), a
    /// `.http` file's requests declared (`use http`; `wsh serve` refuses one: it has requests, not
    /// answers), a pack by its name. The exit code when one fails, else nil.
    /// Every call the files make passes `callGuard` first (``Session/callGuard``), while they load only.
    static func loadFiles(_ files: [String], _ run: Run, _ interrupts: InterruptHandler, command: String,
                          holdingCallsTo callGuard: AllowedHostsTransport) async -> Int32? {
        run.session.callGuard = callGuard
        defer { run.session.callGuard = nil }
        let directory = FileManager.default.currentDirectoryPath
        for file in files {
            let loaded: Outcome
            switch ReadableFile.read(file) {
            case .success where Run.isHTTPFile(file) && command == "serve":
                // Running it would send its requests; it has no answers to serve.
                run.io.err("wsh: error: '\(file)' is a .http file: it has requests, not answers, to serve\n"
                           + "note: wsh serve takes .wsh files, OpenAPI documents, Postman collections (.json) and packs\n")
                return FailureKind.usage.exitCode
            case .success where Run.isHTTPFile(file):
                loaded = await outcome(interrupts) {
                    try await run.execute(text: "use http " + CommandLineRequest.word(file), file: "<command line>", directory: directory)
                }
            case .success(let data) where Self.isOpenAPIDocument(file, data):
                loaded = await outcome(interrupts) {
                    try await run.execute(text: "use openapi " + CommandLineRequest.word(file), file: "<command line>", directory: directory)
                }
            case .success where file.lowercased().hasSuffix(".json"):
                // A Postman collection: each request a target (a route, with its saved examples the answers).
                loaded = await outcome(interrupts) {
                    try await run.execute(text: "use postman " + CommandLineRequest.word(file), file: "<command line>", directory: directory)
                }
            case .success(let data):
                loaded = await outcome(interrupts) {
                    try await run.runFile(contents: data, path: file)
                }
            case .failure(let problem) where problem.isMissing && Run.availablePacks().contains(file):
                // `wsh serve open-meteo`: no file by that name, so the pack `use` would load.
                loaded = await outcome(interrupts) {
                    try await run.execute(text: "use " + CommandLineRequest.word(file), file: "<command line>", directory: directory)
                }
            case .failure(let problem):
                run.io.err("wsh: error: cannot read '\(file)': \(problem)\n")
                if problem.isMissing { run.io.err(Self.packNote(for: file, command: command)) }
                return FailureKind.usage.exitCode
            }
            switch loaded {
            case .completed: if let failure = run.firstFailure { return finalCode(run, failure.exitCode) }
            case .exit(let code): return finalCode(run, code)
            case .failure(let kind): return finalCode(run, kind.exitCode)
            }
        }
        return nil
    }

    /// A `.yaml` or `.yml` file, or a `.json` one whose text names `openapi` near its start.
    static func isOpenAPIDocument(_ file: String, _ data: Data) -> Bool {
        let lowered = file.lowercased()
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return true }
        return lowered.hasSuffix(".json") && String(decoding: data.prefix(2048), as: UTF8.self).contains("\"openapi\"")
    }

    /// After `cannot read 'NAME'` from `wsh serve`: the packs it can serve by name, the closest first.
    static func packNote(for file: String, command: String = "serve") -> String {
        let packs = Run.availablePacks()
        let guess = Suggestion.closest(to: file.hasSuffix(".wsh") ? String(file.dropLast(4)) : file, in: packs)
        return (guess.map { "note: did you mean the pack '\($0)'?\n" } ?? "")
            + "note: wsh \(command) takes .wsh files, \(command == "fuzz" ? ".http files, " : "")OpenAPI documents, Postman collections (.json) or the name of a pack: \(packs.joined(separator: ", "))\n"
    }
}

/// The CPUs this process may run on (its affinity, as `taskset` sets it): one event loop each.
/// NIO's count is the machine's, so a server pinned to one CPU ran two loops that took turns on
/// it, and a request could wait a whole scheduler tick (p99 4.5 ms against 1.1 ms with one loop).
/// Read from `Cpus_allowed` in /proc/self/status (sched_getaffinity is not in Swift's Glibc module).
private var usableCPUs: Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return System.coreCount }
    let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { total, character in
        total + (character.hexDigitValue?.nonzeroBitCount ?? 0)
    }
    return count > 0 ? min(count, System.coreCount) : System.coreCount
}
