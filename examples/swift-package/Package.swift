// swift-tools-version:6.0
// A package that uses wsh's libraries as an app would use Moya and ReactorKit: targets declared
// in Swift, sent through the provider, and a reactor whose state follows its actions.
// Linux, Swift 6 (what wsh itself builds with); it depends on wsh by path.
import PackageDescription

let package = Package(
    name: "WeatherClient",
    products: [.library(name: "WeatherClient", targets: ["WeatherClient"])],
    dependencies: [.package(name: "wsh", path: "../..")],
    targets: [
        .target(
            name: "WeatherClient",
            dependencies: [
                .product(name: "Targets", package: "wsh"),
                .product(name: "Reactor", package: "wsh"),
            ]
        ),
        .testTarget(
            name: "WeatherClientTests",
            dependencies: ["WeatherClient", .product(name: "TestSupport", package: "wsh")],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
