import Foundation
import TestSupport
import Testing

/// `wsh serve` matches a request's path as a server framework does: split on `/` first, then each
/// segment percent-decoded, so `%2F` stays inside its segment and an encoded literal (`caf%C3%A9`,
/// `%3A`) matches the route written plainly.
@Suite struct ServeEncodedPathTests {
    @Test func percentEncodedSegmentsMatchTheirRoutes() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try """
            target cafe { path /café/menu; sample @cafe.json }
            target cancel { path /orders/{id}:cancel; method POST; sample @cancel.json }
            target user { path /users/{id}; sample @user.json }
            target file { path /files/{name}; sample @file.json }
            target report { path /reports/{year}.json; sample @report.json }
            """.write(to: directory.appendingPathComponent("api.wsh"), atomically: true, encoding: .utf8)
        for name in ["cafe", "cancel", "user", "file", "report"] {
            try "{\"route\":\"\(name)\"}".write(to: directory.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
        }
        let (server, port) = try await ServeTests.serve(["api.wsh"], directory: directory)
        let base = "http://127.0.0.1:\(port)"
        let asked: [(arguments: [String], route: String?)] = [
            (["\(base)/caf%C3%A9/menu"], "cafe"),
            (["\(base)/caf%c3%a9/menu"], "cafe"),
            (["-X", "POST", "\(base)/orders/7%3Acancel"], "cancel"),
            (["\(base)/users/a%20b"], "user"),
            (["\(base)/files/x%2Fy"], "file"),
            (["\(base)/reports/2024%2Ejson"], "report"),
            (["\(base)/users/bad%ZZ"], "user"),
            // Two segments: no route has three.
            (["\(base)/files/x/y"], nil),
        ]
        let answers = try await offPool { try asked.map { try ServeTests.curl(["--path-as-is"] + $0.arguments) } }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        for (question, answer) in zip(asked, answers) {
            if let route = question.route {
                #expect(answer.hasPrefix("HTTP/1.1 200 OK\n") && answer.hasSuffix("{\"route\":\"\(route)\"}"), "\(question.arguments): \(answer)")
            } else {
                #expect(answer.hasPrefix("HTTP/1.1 404 "), "\(question.arguments): \(answer)")
            }
        }
    }
}
