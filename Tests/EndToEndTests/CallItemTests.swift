import Foundation
import Testing
import TestSupport

/// Call-time items in the built binary, against the loopback server's `/echo` route: what each
/// sends, and the errors a user meets, at the word, with a caret.
@Suite struct CallItemTests {
    @Test func aMissingFileIsAnErrorAtItsWord() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let declare = "target m { base \(server.baseURL); path /echo; method POST; multipart title=t f@up.txt }\n"
            try Data("up\n".utf8).write(to: directory.appendingPathComponent("up.txt"))
            let (part, _) = try await runScript(declare + "call m f@nope.txt", directory: directory)
            #expect(part.status == 3)
            #expect(part.stderr.contains("script.wsh:2:8: error: no such file: nope.txt\n"), "\(part.stderr)")
            #expect(part.stderr.contains("   call m f@nope.txt\n          ^~~~~~~~~~\n"), "\(part.stderr)")
            let (body, _) = try await runScript(declare + "call m title=x @missing.json", directory: directory)
            #expect(body.stderr.contains("script.wsh:2:16: error: no such file: missing.json\n"), "\(body.stderr)")
            let (folder, _) = try await runScript(declare + "call m f@.", directory: directory)
            #expect(folder.stderr.contains("script.wsh:2:8: error: cannot read "), "\(folder.stderr)")
            #expect(server.hits("/echo") == 0)
        }
    }

    @Test func argumentsThatCannotBeSentAsGivenAreErrorsAtTheirWords() async throws {
        try await withLoopbackServer { server in
            let declare = """
                target item { base \(server.baseURL); path /echo/{id}; method POST; json name=x }
                target up { base \(server.baseURL); path /echo; method POST; multipart f }

                """
            let (twice, _) = try await runScript(declare + "call item id=1 id=2")
            #expect(twice.stderr.contains("script.wsh:3:11: error: parameter 'id' of target 'item' fills a path segment and takes one value, not several"),
                    "\(twice.stderr)")
            let (file, _) = try await runScript(declare + "call item id=1 name@/etc/hostname")
            #expect(file.stderr.contains("script.wsh:3:16: error: 'name@FILE' sends a file part, and target 'item' has no multipart body to carry it"),
                    "\(file.stderr)")
            let (field, _) = try await runScript(declare + "call item id=1 name=y @/etc/hostname")
            #expect(field.stderr.contains("script.wsh:3:16: error: 'name' is a body field of target 'item', and @FILE gives the whole body instead"),
                    "\(field.stderr)")
            let (bodies, _) = try await runScript(declare + "call item id=1 @/etc/hostname @/etc/hostname")
            #expect(bodies.stderr.contains("script.wsh:3:31: error: a call has one body: this is a second @FILE"), "\(bodies.stderr)")
            let (json, _) = try await runScript(declare + "call item id=1 name:=notjson")
            #expect(json.stderr.contains("script.wsh:3:16: error: parameter 'name' of target 'item' is not valid JSON"), "\(json.stderr)")
            #expect(server.hits("/echo/1") == 0)
        }
    }

    /// `f=@FILE` on a multipart target sends the file, as curl's `-F f=@FILE` does (it sent the
    /// text "@up.txt" before); quoted, `f="@up.txt"` is that text. The part's type follows the
    /// extension, or `;type=`.
    @Test func multipartFileItemsSendTheFileWithItsType() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Data("up\n".utf8).write(to: directory.appendingPathComponent("up.txt"))
            try Data("PNG".utf8).write(to: directory.appendingPathComponent("logo.png"))
            let script = """
                target m { base \(server.baseURL); path /echo; method POST; multipart f g=x }
                call m f=@up.txt g@logo.png > one.json
                call m f="@up.txt" g@logo.png;type=image/x-icon > two.json
                """
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let bodies = try ["one.json", "two.json"].map { name in
                let echo = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? [String: Any]
                return try #require(echo?["body"] as? String)
            }
            #expect(bodies[0].contains("name=\"f\"; filename=\"up.txt\"\r\nContent-Type: text/plain\r\n\r\nup\n\r\n"), "\(bodies[0])")
            #expect(bodies[0].contains("name=\"g\"; filename=\"logo.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n"), "\(bodies[0])")
            #expect(bodies[1].contains("name=\"f\"\r\n\r\n@up.txt\r\n"), "\(bodies[1])")
            #expect(bodies[1].contains("name=\"g\"; filename=\"logo.png\"\r\nContent-Type: image/x-icon\r\n\r\nPNG\r\n"), "\(bodies[1])")
        }
    }

    /// `target NAME from last` keeps what a call's items sent: query items, a key given twice, a body
    /// given whole; calling the kept target sends the same request again.
    @Test func aTargetFromLastKeepsTheCallsItems() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            try Data(#"{"whole": true}"#.utf8).write(to: directory.appendingPathComponent("payload.json"))
            let script = """
                target t { base \(server.baseURL); path /echo; method POST; query a=1; json name }
                call t q==x a=2 a=3 name=n name=m > one.json
                target kept from last
                call kept > two.json
                call t @payload.json > three.json
                target whole from last
                call whole > four.json
                show kept
                """
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            func echo(_ name: String) throws -> (query: String?, body: String?) {
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? [String: Any]
                return (json?["query"] as? String, json?["body"] as? String)
            }
            #expect(try echo("one.json").query == "a=2&a=3&q=x")
            #expect(try echo("one.json").body == #"{"name":["n","m"]}"#)
            #expect(try echo("two.json").query == "a=2&a=3&q=x")
            #expect(try echo("two.json").body == #"{"name":["n","m"]}"#)
            #expect(try echo("three.json").body == #"{"whole": true}"#)
            #expect(try echo("four.json").body == #"{"whole": true}"#)
            #expect(result.stdout.contains("query a=2 a=3 q=x"), "\(result.stdout)")
        }
    }

    /// A body of bytes that are not UTF-8, sent from a file (a request's `@FILE` or a target's
    /// `body @FILE`), is kept as that file: the kept target sends the same bytes, not text with the
    /// bad bytes replaced.
    @Test func aTargetFromLastKeepsABinaryBodyAsItsFile() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x31, 0x32, 0xFF, 0x00]
            try Data(png).write(to: directory.appendingPathComponent("img.png"))
            let script = """
                put \(server.baseURL)/echo @img.png > one.json
                target raw from last
                call raw > two.json
                show raw
                target img { base \(server.baseURL); path /echo; method PUT; body @img.png }
                call img > three.json
                target copy from last
                call copy > four.json
                """
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let hex = png.map { String(format: "%02x", $0) }.joined()
            for name in ["one.json", "two.json", "three.json", "four.json"] {
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? [String: Any]
                #expect((json?["bodyHex"] as? String)?.lowercased() == hex, "\(name): \(json ?? [:])")
            }
            #expect(result.stdout.contains("body @" + directory.appendingPathComponent("img.png").path), "\(result.stdout)")
        }
    }
}
