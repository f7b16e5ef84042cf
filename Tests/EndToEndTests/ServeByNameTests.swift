import Foundation
import Testing
import TestSupport

/// `wsh serve NAME`: a pack by its name, as `use NAME` loads it; and a file that cannot be read says why.
@Suite struct ServeByNameTests {
    @Test func aBundledPackIsServedByItsName() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let (server, port) = try await ServeTests.serve(["open-meteo"], directory: directory)
        let answer = try await offPool { try ServeTests.curl(["http://127.0.0.1:\(port)/v1/search?name=Suwon"]) }
        server.interrupt()
        #expect(try await offPool { server.waitForExit() } == 0)
        #expect(server.stderr.hasPrefix("wsh serve: 3 routes at "), "\(server.stderr)")
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\n") && answer.contains("\"latitude\""), "\(answer)")
    }

    @Test func aFileThatCannotBeReadSaysWhy() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("api.wsh"), withIntermediateDirectories: false)
        let folder = try await WSHProcess.run(["serve", "api.wsh"], directory: directory)
        #expect(folder.status == 1)
        #expect(folder.stderr == "wsh: error: cannot read 'api.wsh': is a directory\n", "\(folder.stderr)")

        let missing = try await WSHProcess.run(["serve", "open-meteoo"], directory: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("""
            wsh: error: cannot read 'open-meteoo': no such file or directory
            note: did you mean the pack 'open-meteo'?
            note: wsh serve takes .wsh files, OpenAPI documents, Postman collections (.json) or the name of a pack: open-meteo, openweathermap
            """), "\(missing.stderr)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads a file whatever its mode"))
    func aFileWithoutReadPermissionSaysSo() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let file = directory.appendingPathComponent("secret.wsh")
        try "target t { path /t }".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o200], ofItemAtPath: file.path)
        let result = try await WSHProcess.run(["serve", "secret.wsh"], directory: directory)
        #expect(result.stderr == "wsh: error: cannot read 'secret.wsh': permission denied\n", "\(result.stderr)")
    }
}
