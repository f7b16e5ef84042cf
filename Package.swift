// swift-tools-version:6.0
import PackageDescription

/// Nonisolated async code runs on its caller's executor (SE-0461), so a call made by the shell
/// stays on the shell's event loop instead of hopping to the task executor and back.
let runOnCaller: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "wsh",
    // Linux is where wsh runs and is tested; on Apple platforms the libraries need Synchronization.Mutex (macOS 15).
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "wsh", targets: ["wsh"]),
        // Moya's and ReactorKit's shapes as libraries: targets, provider and transports; the plugins; the store.
        .library(name: "Targets", targets: ["Targets"]),
        .library(name: "Plugins", targets: ["Plugins"]),
        .library(name: "Reactor", targets: ["Reactor"]),
        .library(name: "Checks", targets: ["Checks"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        // The loopback HTTP server wsh's tests use, for packages that test code built on these libraries.
        .library(name: "TestSupport", targets: ["TestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // MD5 and SHA-256 for Digest authentication (RFC 7616).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // TLS settings of the transport (trust roots, client certificates); AsyncHTTPClient already uses it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // YAML for reading and writing OpenAPI documents.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // HDR histograms of latencies for `wsh load` (the algorithm's own Swift port, with its tests).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The system's SQLite, for the call history: linked statically by scripts/build-release.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system's zlib and brotli decoders, for answers sent with Content-Encoding gzip, deflate or br.
        .systemLibrary(
            name: "CCompression",
            providers: [.apt(["zlib1g-dev", "libbrotli-dev"])]
        ),
        // The system's libxml2, for the xpath filter on HTML and XML bodies (scripts/build-release links it statically).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // XPath 1.0 on HTML and XML bodies, with nothing read from disk or the network.
        .target(name: "XPath", dependencies: ["CLibXML2"], swiftSettings: runOnCaller),
        .target(
            name: "Targets",
            dependencies: [
                "CCompression",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: runOnCaller
        ),
        .target(
            name: "Plugins",
            dependencies: ["Targets", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: runOnCaller
        ),
        .target(name: "Reactor", swiftSettings: runOnCaller),
        // Checks on answers that know nothing of the shell: queries and their filters (sha256 and md5
        // from swift-crypto), typed comparison, JSONPath, a linear-time regular expression engine,
        // JSON Schema (of JSON values, from Targets).
        .target(name: "Checks", dependencies: ["Targets", "XPath", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: runOnCaller),
        // `wsh fuzz`: inputs generated from declarations and JSON Schemas (valid and invalid), the
        // checks of answers, shrinking and stateful chains; also the values of made-up mock
        // answers. Knows nothing of the shell.
        .target(name: "Fuzzing", dependencies: ["Targets", "Checks"], swiftSettings: runOnCaller),
        // `wsh load`: latencies in HDR histograms, per second and for the run, thresholds, and the live
        // view and reports drawn from them. Knows nothing of the shell.
        .target(name: "Load", dependencies: ["Targets", .product(name: "Histogram", package: "hdrhistogram-swift")], swiftSettings: runOnCaller),
        // `wsh serve`: routes from declared targets, answered from their samples; knows nothing of the shell.
        .target(
            name: "MockServer",
            dependencies: [
                "Targets", "Checks", "Fuzzing",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: runOnCaller
        ),
        // `use openapi` and `openapi export`: documents to target declarations and back, and JSON Schema
        // checks of answers; knows nothing of the shell.
        .target(
            name: "OpenAPI",
            dependencies: [
                "Targets", "Checks",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: runOnCaller
        ),
        // The call history: every call, secrets masked, in SQLite, written by a thread of its own.
        .target(name: "CallHistory", dependencies: ["Targets", "CSQLite"], swiftSettings: runOnCaller),
        .target(
            name: "WeatherShell",
            dependencies: [
                "Targets", "Plugins", "Reactor", "Checks", "MockServer", "CEdit", "CallHistory", "OpenAPI", "Fuzzing", "Load",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: runOnCaller
        ),
        .executableTarget(name: "wsh", dependencies: ["WeatherShell"]),
        // A loopback HTTP server on SwiftNIO for the tests (fixtures, status codes, echo, slow routes).
        .target(
            name: "TestSupport",
            dependencies: [
                // Its seeded generator: the random tests and `wsh fuzz` draw from one SplitMix64.
                "Fuzzing",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Opens pseudo-terminals for the end-to-end tests of the prompt.
        .target(name: "CPseudoTerminal"),
        .testTarget(name: "TargetsTests", dependencies: ["Targets", "TestSupport"]),
        .testTarget(name: "PluginsTests", dependencies: ["Plugins", "Targets", "TestSupport"]),
        .testTarget(name: "ReactorTests", dependencies: ["Reactor"]),
        .testTarget(name: "ChecksTests", dependencies: ["Checks", "Targets", "TestSupport"]),
        .testTarget(name: "XPathTests", dependencies: ["XPath"]),
        .testTarget(name: "LoadTests", dependencies: ["Load"]),
        .testTarget(name: "FuzzingTests", dependencies: ["Fuzzing", "Checks", "Targets", "OpenAPI", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "CallHistoryTests", dependencies: ["CallHistory", "Targets", "TestSupport"]),
        .testTarget(name: "MockServerTests", dependencies: ["MockServer", "Targets", "TestSupport"]),
        .testTarget(name: "WeatherShellTests", dependencies: ["WeatherShell", "Checks", "TestSupport", "CallHistory"]),
        .testTarget(name: "OpenAPITests", dependencies: ["OpenAPI", "Checks", "Targets", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["wsh", "TestSupport", "CPseudoTerminal"]),
    ],
    swiftLanguageModes: [.v6]
)
