import Foundation
import Targets
import TestSupport
import Testing

/// Answers with a Content-Encoding, compressed by the system's own tools (gzip, Python's zlib),
/// decoded by the transport: the decoded size counts against the limit, a broken body is an error
/// that names its coding, and `compress` off leaves the bytes as sent.
@Suite struct ContentDecodingTests {
    private static let json = #"{"city":"Suwon","temperature":21.5,"hourly":[1,2,3,4,5,6,7,8,9,10]}"#

    /// The output of `python3 -c SCRIPT` given `input` on stdin.
    private static func python(_ script: String, input: Data = Data()) async throws -> [UInt8] {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script]
            let stdin = Pipe(), stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            try process.runSerially()
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
            let output = stdout.fileHandleForReading.readToEndRetryingInterrupts()
            process.waitUntilExitPolling()
            return Array(output)
        }
    }

    private static func gzip(_ text: String) async throws -> [UInt8] {
        try await python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))", input: Data(text.utf8))
    }

    private static func route(_ bytes: [UInt8], coding: String) -> StaticRoute {
        StaticRoute(headers: [("Content-Type", "application/json"), ("Content-Encoding", coding)], body: bytes)
    }

    private func call(_ server: TestServer, _ path: String, configure: (inout Provider<Target>) -> Void = { _ in }) async throws -> Response {
        var provider = Provider<Target>()
        configure(&provider)
        return try await provider.request(Target(name: "z", baseURL: server.baseURL, path: path))
    }

    @Test func gzipZlibAndRawDeflateAreDecodedAndTheRawBytesKept() async throws {
        let gzipped = try await Self.gzip(Self.json)
        let zlib = try await Self.python("import zlib,sys; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))",
                                         input: Data(Self.json.utf8))
        let raw = try await Self.python(
            "import zlib,sys; c=zlib.compressobj(9, zlib.DEFLATED, -15); sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read())+c.flush())",
            input: Data(Self.json.utf8))
        // Applied in order: deflate first, then gzip; decoding undoes gzip first.
        let twice = try await Self.python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))", input: Data(zlib))
        let routes = [
            "/gzip": Self.route(gzipped, coding: "gzip"), "/zlib": Self.route(zlib, coding: "deflate"),
            "/raw": Self.route(raw, coding: "deflate"), "/twice": Self.route(twice, coding: "deflate, GZIP"),
        ]
        try await withTestServer(routes: routes) { server in
            for path in ["/gzip", "/zlib", "/raw", "/twice"] {
                let response = try await call(server, path)
                #expect(String(decoding: response.body, as: UTF8.self) == Self.json, "\(path)")
                #expect(try response.json()["city"] == .string("Suwon"), "\(path)")
            }
            #expect(Array(try await call(server, "/gzip").rawBody) == gzipped)
        }
    }

    @Test func theRequestAsksForCompressionUnlessToldNotTo() async throws {
        try await withTestServer { server in
            let asked = try Echo(try await call(server, "/echo"))
            #expect(asked.headers.first { $0.name.lowercased() == "accept-encoding" }?.value == "gzip, deflate, br")
            let plain = try Echo(try await call(server, "/echo") { $0.compress = false })
            #expect(!plain.headers.contains { $0.name.lowercased() == "accept-encoding" })
        }
    }

    @Test func compressOffLeavesTheBytesAsSent() async throws {
        let gzipped = try await Self.gzip(Self.json)
        try await withTestServer(routes: ["/gzip": Self.route(gzipped, coding: "gzip")]) { server in
            let response = try await call(server, "/gzip") { $0.compress = false }
            #expect(Array(response.body) == gzipped)
        }
    }

    @Test func aBombIsAnErrorAtTheLimitOfItsDecodedSize() async throws {
        // Two megabytes of zeros compress to about two kilobytes.
        let bomb = try await Self.python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(bytes(2*1024*1024)))")
        #expect(bomb.count < 10_000)
        try await withTestServer(routes: ["/bomb": Self.route(bomb, coding: "gzip")]) { server in
            let error = await providerError { _ = try await call(server, "/bomb") { $0.bodyLimit = 1024 * 1024 } }
            #expect(error?.isBodyTooLarge == true)
            #expect(error?.description == "response to GET \(server.baseURL)/bomb is larger than the limit of 1.0 MB")
            let whole = try await call(server, "/bomb")
            #expect(whole.body.count == 2 * 1024 * 1024)
        }
    }

    @Test func aBrokenOrUnknownCodingIsAnErrorThatSaysWhatToDo() async throws {
        let gzipped = try await Self.gzip(Self.json)
        let routes = [
            "/truncated": Self.route(Array(gzipped.prefix(gzipped.count / 2)), coding: "gzip"),
            "/garbage": Self.route(Array(Self.json.utf8), coding: "gzip"),
            "/zstd": Self.route(Array(Self.json.utf8), coding: "zstd"),
            "/brotli-garbage": Self.route(Array("not brotli at all".utf8), coding: "br"),
            // Six gzips, one more than curl's limit too: refused before any decoder is made.
            "/six-codings": Self.route(gzipped, coding: Array(repeating: "gzip", count: 6).joined(separator: ", ")),
        ]
        try await withTestServer(routes: routes) { server in
            let expected = [
                "/truncated": "says Content-Encoding: gzip, but its body ends before the gzip data does",
                "/garbage": "says Content-Encoding: gzip, but its body is not valid gzip",
                "/zstd": "has Content-Encoding: zstd, which wsh does not decode (it decodes gzip, deflate and br)",
                "/brotli-garbage": "says Content-Encoding: br, but its body is not valid br",
                "/six-codings": "applies 6 Content-Encodings one inside another; wsh decodes at most 5",
            ]
            for (path, words) in expected {
                let error = await providerError { _ = try await call(server, path) }
                #expect(error?.description == "the answer to GET \(server.baseURL)\(path) \(words); set compress off to see the bytes as sent")
            }
        }
    }

    /// A streamed answer is decoded as it goes: a piece of a few kilobytes that inflates to 16 MB
    /// reaches the sink in chunks of at most 64 KB, never whole (a 1 MB gzip of a gigabyte of zeros
    /// took 730 MB when each piece was inflated at once), and no byte is lost or added.
    @Test func aStreamedBombReachesTheSinkInBoundedChunks() async throws {
        let size = 16 * 1024 * 1024
        let once = try await Self.python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(bytes(\(size))))")
        let twice = try await Self.python("import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))", input: Data(once))
        let routes = ["/once": Self.route(once, coding: "gzip"), "/twice": Self.route(twice, coding: "gzip, gzip")]
        try await withTestServer(routes: routes) { server in
            for path in ["/once", "/twice"] {
                let sink = ChunkCountingSink()
                let response = try await Provider<Target>().request(Target(name: "z", baseURL: server.baseURL, path: path), streamingBodyTo: sink)
                #expect(response.streamedBodyBytes == size, "\(path)")
                #expect(sink.total == size && sink.nonZero == 0, "\(path): \(sink.total) bytes, \(sink.nonZero) not zero")
                #expect(sink.largest <= 64 * 1024, "\(path): a piece of \(sink.largest) bytes")
                #expect(sink.pieces >= size / (64 * 1024), "\(path): \(sink.pieces) pieces")
            }
        }
    }

    @Test func anEmptyBodyWithAnEncodingIsEmpty() async throws {
        // A HEAD answer, or a 204, names the coding its GET would have had.
        try await withTestServer(routes: ["/empty": Self.route([], coding: "gzip")]) { server in
            let response = try await call(server, "/empty")
            #expect(response.body.isEmpty)
        }
    }
}

/// Takes a streamed body and counts it: the pieces, the largest, the bytes and those not zero.
private final class ChunkCountingSink: ResponseBodySink, @unchecked Sendable {
    // Unchecked: the transport calls a sink one call at a time, and the test reads it after the request.
    var pieces = 0, largest = 0, total = 0, nonZero = 0
    func begin(status: Int, headers: [Header]) throws -> Bool { true }
    func write(_ piece: Data) throws {
        pieces += 1
        largest = max(largest, piece.count)
        total += piece.count
        nonZero += piece.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
    }
    func end(completed: Bool) {}
    var keepsCopy: Bool { false }
}
