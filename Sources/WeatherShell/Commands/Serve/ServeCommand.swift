import ArgumentParser

/// `wsh serve FILE... [--port N] [--host H] [--delay D] [--seed S] [--cors] [--quiet]` as swift-argument-parser reads it.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsh serve",
        abstract: "Answer the targets the files declare from their samples, as a mock HTTP server.",
        discussion: "Each target is a route by method and path. `Prefer: code=404` picks a sample by status. An OpenAPI operation with no sample is answered with a value made up from its schema (also with `Prefer: dynamic=true`). Ctrl-C stops."
    )

    // Unconditional: `--port -1`, `--delay -5ms` are values said wrong, not "Missing value".
    @Option(parsing: .unconditional, help: "The port to listen on; 0 picks a free one.")
    var port: Int = 4010

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(parsing: .unconditional, help: ArgumentHelp("Latency before each answer, such as 100ms.", valueName: "DURATION"))
    var delay: String?

    @Option(help: ArgumentHelp("The seed of answers made up from schemas: with it, the same request gets the same answer.", valueName: "S"))
    var seed: UInt64?

    @Flag(help: "Add CORS headers and answer preflight requests.")
    var cors = false

    @Flag(help: "Do not log requests on stderr.")
    var quiet = false

    @Flag(help: "Answer calls the files make from samples too (set stub immediate).")
    var stub = false

    @Option(name: .customLong("env"), help: ArgumentHelp("Choose an environment first, from the files beside the first FILE (set env NAME).",
                                                         valueName: "NAME"))
    var environment: String?

    @Argument(help: ArgumentHelp("The .wsh files that declare the targets, OpenAPI documents, Postman collections (.json), or the name of a pack (open-meteo).", valueName: "FILE"))
    var files: [String] = []

    mutating func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one .wsh file, or a pack's name, whose targets to serve") }
        guard (0...65535).contains(port) else { throw ValidationError("a port is a number from 0 to 65535") }
        if let delay, DurationText.parse(delay) == nil { throw ValidationError("a delay is a duration such as 100ms or 2s") }
    }

    var settings: ServeSettings {
        var settings = ServeSettings()
        settings.port = port
        settings.host = host
        settings.delay = delay.flatMap(DurationText.parse)
        settings.cors = cors
        settings.quiet = quiet
        if let seed { settings.seed = seed }
        return settings
    }
}
