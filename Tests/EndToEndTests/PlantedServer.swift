import Foundation
import TestSupport

/// Tests/Files/planted/planted_server.py: an API with thirteen planted defects (its README lists
/// them), on a free loopback port, each request written to a log. Python's standard library only.
final class PlantedServer: @unchecked Sendable {
    // Unchecked: Foundation's Process is not Sendable; it is only started in init and stopped once.
    private let process = Process()
    let baseURL: String
    let log: URL

    static let folder = HTTPBinServer.repository.appendingPathComponent("Tests/Files/planted")
    static var document: String { folder.appendingPathComponent("planted.yaml").path }

    /// Starts a server, runs `body` with it, and stops it on every path.
    static func with<T>(_ body: (PlantedServer) async throws -> T) async throws -> T {
        let server = try await offPool { try PlantedServer() }
        return try await using(server, stoppedBy: { await $0.stop() }, body)
    }

    private init() throws {
        log = try WSHProcess.temporaryDirectory().appendingPathComponent("requests.ndjson")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The test process blocks SIGTERM in its threads and a child inherits the mask: Python clears it.
        process.arguments = ["python3", "-c", """
            import runpy, signal, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            sys.argv = ["planted_server.py", "--port", "0", "--log", sys.argv[1]]
            runpy.run_path(\(String(reflecting: Self.folder.appendingPathComponent("planted_server.py").path)), run_name="__main__")
            """, log.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.runSerially()
        // One line, `listening on http://127.0.0.1:PORT`, once it listens: read up to its end.
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableDataRetryingInterrupts()
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else {
            process.terminate()
            throw StartFailure(said: text)
        }
        baseURL = String(text.dropFirst("listening on ".count))
    }

    /// The requests it answered, as `METHOD /path?query` lines, and the planted defects they triggered.
    func requests() throws -> [(line: String, defect: String?)] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            let query = object["query"] as? String ?? ""
            return ("\(object["method"] as? String ?? "") \(object["path"] as? String ?? "")\(query.isEmpty ? "" : "?" + query)", object["defect"] as? String)
        }
    }

    /// Each request's log line as JSON: method, path, query, headers (names lowercased), body.
    func loggedRequests() throws -> [[String: Any]] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }

    func stop() async {
        await process.terminateAndWait()
    }

    struct StartFailure: Error, CustomStringConvertible {
        var said: String
        var description: String { "the planted server did not start: \(said)" }
    }

    /// The planted defects, from defects.json: which target and check each one shows under.
    struct Defect: Decodable {
        var id: String
        var operationId: String
        var wsh: [String]
        var also: [Also]?

        struct Also: Decodable {
            var operationId: String
        }

        /// Whether wsh's failure of `oracle` on `target` shows this defect.
        func isShown(byTarget target: String, oracle: String) -> Bool {
            wsh.contains(oracle) && ([operationId] + (also ?? []).map(\.operationId)).contains(target)
        }
    }

    static func defects() throws -> [Defect] {
        try JSONDecoder().decode([Defect].self, from: Data(contentsOf: folder.appendingPathComponent("defects.json")))
    }
}
