import Foundation
import Testing
import TestSupport

/// Every item syntax of a call and of a target's fields, sent by wsh and by curl for the same
/// intention to httpbin's `/anything`: what httpbin saw (method, URL, args, form, files, json,
/// data, Content-Type and the headers the item sets) must be the same. The table in docs/requests.md of
/// item syntaxes lists these rows.
@Suite(.serialized) struct HTTPBinItemTests {
    struct Row: Sendable, CustomStringConvertible {
        /// The wsh call, after the targets below are declared.
        var call: String
        /// curl's arguments for the same request; `B` stands for httpbin's base URL.
        var curl: [String]
        /// Headers the row sets, compared beside Content-Type.
        var headers: [String] = []
        var description: String { call }
    }

    /// The targets the rows call; `B` stands for httpbin's base URL.
    static let targets = """
        target get { base B; path /anything; query a=1 }
        target tags { base B; path /anything; query tag=a tag=b }
        target tagList { base B; path /anything; query tag:='["a","b"]' }
        target form { base B; path /anything; method POST; form tag=a tag=b }
        target formList { base B; path /anything; method POST; form tag:='["a","b c"]' }
        target person { base B; path /anything; method POST; json name age:=0 }
        target upload { base B; path /anything; method POST; multipart title=t f@a.txt }
        target twoFiles { base B; path /anything; method POST; multipart f@a.txt f@b.txt }
        target fragment { base B; path "/anything#frag"; query y=2 }
        target baseQuery { base B/anything?v=2; path /items; query y=1 }
        """

    static let rows: [Row] = [
        Row(call: "call get q==x 'w==a b' q==y", curl: ["-G", "B/anything", "--data-urlencode", "a=1", "--data-urlencode", "q=x",
                                                      "--data-urlencode", "w=a b", "--data-urlencode", "q=y"]),
        Row(call: "call get a=x a=y", curl: ["B/anything?a=x&a=y"]),
        Row(call: "call tags", curl: ["B/anything?tag=a&tag=b"]),
        Row(call: "call tagList", curl: ["B/anything?tag=a&tag=b"]),
        Row(call: "call form", curl: ["B/anything", "-d", "tag=a", "-d", "tag=b"]),
        Row(call: "call formList", curl: ["B/anything", "--data-urlencode", "tag=a", "--data-urlencode", "tag=b c"]),
        Row(call: "call form tag=x tag=y", curl: ["B/anything", "-d", "tag=x", "-d", "tag=y"]),
        Row(call: "call person name=Ana age:=31", curl: ["B/anything", "--json", #"{"name":"Ana","age":31}"#]),
        Row(call: #"call person name=x age:='{"a": [1, 2]}'"#, curl: ["B/anything", "--json", #"{"name":"x","age":{"a":[1,2]}}"#]),
        Row(call: "call person name=a name=b age:=1", curl: ["B/anything", "--json", #"{"name":["a","b"],"age":1}"#]),
        Row(call: "call person name=@up.txt age:=1", curl: ["B/anything", "--json", #"{"name":"hello upload\n","age":1}"#]),
        Row(call: "call person @payload.json", curl: ["B/anything", "--data-binary", "@payload.json", "-H", "Content-Type: application/json"]),
        Row(call: "call upload title=x f@up.txt", curl: ["B/anything", "-F", "title=x", "-F", "f=@up.txt"]),
        Row(call: "call upload f=@up.txt", curl: ["B/anything", "-F", "title=t", "-F", "f=@up.txt"]),
        Row(call: #"call upload f="@up.txt""#, curl: ["B/anything", "-F", "title=t", "--form-string", "f=@up.txt"]),
        Row(call: "call upload f@logo.png", curl: ["B/anything", "-F", "title=t", "-F", "f=@logo.png"]),
        Row(call: "call upload f@logo.bin;type=image/png", curl: ["B/anything", "-F", "title=t", "-F", "f=@logo.bin;type=image/png"]),
        Row(call: "call upload 'f@logo.bin;type=image/gif'", curl: ["B/anything", "-F", "title=t", "-F", "f=@logo.bin;type=image/gif"]),
        Row(call: "call twoFiles", curl: ["B/anything", "-F", "f=@a.txt", "-F", "f=@b.txt"]),
        Row(call: "call get X-Trace:1", curl: ["B/anything?a=1", "-H", "X-Trace: 1"], headers: ["X-Trace"]),
        Row(call: "call fragment", curl: ["B/anything?y=2"]),
        Row(call: "call baseQuery", curl: ["B/anything/items?v=2&y=1"]),
        // Requests with no target, with the same items.
        Row(call: "get B/anything q==1 tag==a tag==b X-Trace:1", curl: ["B/anything?q=1&tag=a&tag=b", "-H", "X-Trace: 1"],
            headers: ["X-Trace"]),
        Row(call: "get B/anything?a=1#frag b==2", curl: ["B/anything?a=1&b=2"]),
        Row(call: #"post B/anything name=Ana age:=31 tags:='["x", "y"]'"#, curl: ["B/anything", "--json", #"{"name":"Ana","age":31,"tags":["x","y"]}"#]),
        Row(call: "post B/anything --form title=x 'note=two words'", curl: ["B/anything", "--data-urlencode", "title=x", "--data-urlencode", "note=two words"]),
        Row(call: "post B/anything title=x f@up.txt", curl: ["B/anything", "-F", "title=x", "-F", "f=@up.txt"]),
        Row(call: "post B/anything --multipart title=x", curl: ["B/anything", "-F", "title=x"]),
        Row(call: "post B/anything f@logo.bin;type=image/png", curl: ["B/anything", "-F", "f=@logo.bin;type=image/png"]),
        Row(call: "put B/anything @payload.json", curl: ["B/anything", "-X", "PUT", "--data-binary", "@payload.json", "-H", "Content-Type: application/json"]),
        Row(call: "patch B/anything text=@up.txt", curl: ["B/anything", "-X", "PATCH", "--json", #"{"text":"hello upload\n"}"#]),
        Row(call: "delete B/anything/3", curl: ["B/anything/3", "-X", "DELETE"]),
        Row(call: "request trace B/anything X-Why:cache", curl: ["B/anything", "-X", "TRACE", "-H", "X-Why: cache"], headers: ["X-Why"]),
    ]

    /// The files the rows send.
    static func writeFiles(in directory: URL) throws {
        try Data("hello upload\n".utf8).write(to: directory.appendingPathComponent("up.txt"))
        try Data("A\n".utf8).write(to: directory.appendingPathComponent("a.txt"))
        try Data("B\n".utf8).write(to: directory.appendingPathComponent("b.txt"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0xFF, 0xFE]
        try Data(png).write(to: directory.appendingPathComponent("logo.png"))
        try Data(png).write(to: directory.appendingPathComponent("logo.bin"))
        try Data(#"{"name": "Ana", "tags": [1, 2]}"#.utf8).write(to: directory.appendingPathComponent("payload.json"))
    }

    @Test func everyItemSyntaxReachesHTTPBinAsCurlsEquivalentDoes() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        try Self.writeFiles(in: directory)
        try await HTTPBinServer.with { httpbin in
            let base = httpbin.baseURL
            var script = Self.targets.replacingOccurrences(of: "base B", with: "base \(base)") + "\n"
            for (index, row) in Self.rows.enumerated() {
                script += "\(row.call.replacingOccurrences(of: " B/", with: " \(base)/")) > out-\(index).json\n"
            }
            let (result, _) = try await runScript(script, directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            for (index, row) in Self.rows.enumerated() {
                let fromWSH = try Data(contentsOf: directory.appendingPathComponent("out-\(index).json"))
                let curlArguments = row.curl.map { $0.hasPrefix("B/") ? base + $0.dropFirst() : $0 }
                let fromCurl = try await runCurl(curlArguments, directory: directory)
                let seenFromWSH = try Self.seen(fromWSH, headers: row.headers)
                let seenFromCurl = try Self.seen(fromCurl, headers: row.headers)
                #expect(seenFromWSH == seenFromCurl, "\(row.call): wsh sent \(seenFromWSH), curl \(seenFromCurl)")
            }
        }
    }

    /// What httpbin's echo says it saw, in the parts the rows compare.
    static func seen(_ echo: Data, headers: [String]) throws -> NSDictionary {
        guard let json = try JSONSerialization.jsonObject(with: echo) as? [String: Any],
              let sentHeaders = json["headers"] as? [String: String] else {
            throw EchoFailure(text: String(decoding: echo, as: UTF8.self))
        }
        var seen: [String: Any] = [:]
        for key in ["method", "url", "args", "form", "files", "json", "data"] { seen[key] = json[key] ?? NSNull() }
        // curl's --data-urlencode writes a space as `+`, wsh as `%20` (a `+` means a space only to
        // form decoders; wsh sends a `+` it is given as `%2B`): the same query to httpbin's args.
        if let url = json["url"] as? String, let mark = url.firstIndex(of: "?") {
            seen["url"] = url[..<mark] + url[mark...].replacingOccurrences(of: "+", with: "%20")
        }
        // A multipart boundary is random: the media type is what is compared.
        seen["Content-Type"] = sentHeaders["Content-Type"].map { String($0.prefix { $0 != ";" }) } ?? "(none)"
        for name in headers { seen[name] = sentHeaders[name] ?? "(none)" }
        return seen as NSDictionary
    }

    struct EchoFailure: Error { var text: String }
}
