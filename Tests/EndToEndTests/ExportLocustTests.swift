import Foundation
import Testing
import TestSupport

/// `export locust`: the locustfile it writes, run by Locust (PyPI, scripts/ensure-locust.sh)
/// against the planted server, sends what wsh sends (methods, paths, headers, bodies, the
/// capture in the next call, the secret from the environment), in one process and as a master
/// with two workers; the server's log and Locust's final stats agree. One at a time, as
/// LoadEndToEndTests: each Locust run takes what CPU there is.
@Suite(.serialized) struct ExportLocustTests {
    static var locust: String { (ProcessInfo.processInfo.environment["WSH_LOCUST_VENV"] ?? "/tmp/wsh-locust") + "/bin/locust" }
    static let secret = "locust-Key-7f3a9"

    static func write(_ server: PlantedServer, in directory: URL) async throws -> String {
        let scenario = """
            target user { base \(server.baseURL); path /users/{id}; header X-Client:wsh X-Key:$key }
            target create { base \(server.baseURL); path /notes; method POST; json title body=hello }
            let key = env LOCUST_KEY
            call user id=3
            expect status == 200
            expect .name == "user3"
            let name = .name
            call create title=$name
            expect .id exists
            """
        try scenario.write(to: directory.appendingPathComponent("scenario.wsh"), atomically: true, encoding: .utf8)
        let export = try await WSHProcess.run(["-c", "export locust scenario.wsh > locustfile.py"], environment: ["LOCUST_KEY": secret], directory: directory)
        #expect(export.status == 0, "\(export.stderr)")
        let file = try String(contentsOf: directory.appendingPathComponent("locustfile.py"), encoding: .utf8)
        #expect(!file.contains(secret), "the secret is never written")
        #expect(file.contains(#"os.environ["LOCUST_KEY"]"#) && file.contains("class WshUser(FastHttpUser):"), "\(file)")
        #expect(file.contains(#"resp.failure("scenario.wsh:6: expect .name == \"user3\"")"#), "\(file)")
        return file
    }

    /// The requests the server saw: each of the scenario's, with its headers and body.
    static func checkRequests(_ server: PlantedServer) throws -> Int {
        let requests = try server.loggedRequests()
        for request in requests {
            let headers = request["headers"] as? [String: String] ?? [:]
            switch (request["method"] as? String, request["path"] as? String) {
            case ("GET", "/users/3"):
                #expect(headers["x-client"] == "wsh" && headers["x-key"] == secret, "\(headers)")
            case ("POST", "/notes"):
                #expect(headers["content-type"] == "application/json")
                #expect(request["body"] as? String == #"{"title":"user3","body":"hello"}"#, "\(request)")
                #expect(request["status"] as? Int == 201)
            default:
                Issue.record("a request the scenario does not make: \(request)")
            }
        }
        return requests.count
    }

    static func locustCount(_ json: String) throws -> (requests: Int, failures: Int) {
        let entries = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return (entries.compactMap { $0["num_requests"] as? Int }.reduce(0, +), entries.compactMap { $0["num_failures"] as? Int }.reduce(0, +))
    }

    /// The locustfile's checks hold where wsh's hold. They were Python's comparisons: `== 1` held
    /// on `true`, `== null` on the text "null", `!= 1` on a missing key. Each check is exported
    /// alone and its task run once by Python against the answer, Locust's client stood in for.
    @Test func aCheckHoldsInTheLocustfileWhereItHoldsInWsh() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let answer = #"{"ok":true,"n":false,"x":"null","z":null,"l":[true],"s":"a1"}"#
        let checks: [(String, Bool)] = [
            (".ok == 1", false), (".n == 0", false), (".x == null", false), (".z == null", true), (".missing != 1", false),
            (".n != false", false), (".l contains 1", false), ("not .missing == 1", false), (".ok == true", true),
            (".l == [true]", true), (".z exists", true), (".missing not exists", true), (".s contains 1", true),
            (".l == '[true]'", true), (".s != \"a1\"", false),
            ("status not startsWith 5", false), (".l includes true", true), (".s not includes 1", false), (".l not includes 1", true), (".z not contains a", false), (".ok not endsWith e", false), (".s not startsWith b", true),
            ("header X-Missing exists", false), ("header X-Missing not exists", true), ("not header X-Missing == v", false),
            ("header Content-Type == application/json", true), ("header Content-Type exists", true),
            // A regular expression searched for in a string; a value of another type fails, `not` or no `not` (tester's L14).
            (".s matches \"^a[0-9]$\"", true), (".s matches \"^b\"", false), (".s not matches \"^b\"", true), (".ok matches \"t\"", false),
            (".ok not matches \"t\"", false), ("header Content-Type matches \"json$\"", true),
        ]
        var script = ""
        for (index, (check, _)) in checks.enumerated() {
            try "target t { base http://127.0.0.1:9; path /x; sample '\(answer)' }\ncall t\nexpect \(check)\n"
                .write(to: directory.appendingPathComponent("s\(index).wsh"), atomically: true, encoding: .utf8)
            script += "export locust s\(index).wsh > l\(index).py\n"
        }
        let export = try await WSHProcess.run(["-c", script], directory: directory)
        #expect(export.status == 0, "\(export.stderr)")
        let harness = """
            import json, sys, types
            locust = types.ModuleType("locust")
            class Answer:
                status_code, headers, text = 200, {"Content-Type": "application/json"}, sys.argv[1]
                def __init__(self): self.failed = None
                def json(self): return json.loads(self.text)
                def failure(self, message): self.failed = message
                def __enter__(self): return self
                def __exit__(self, *rest): return False
            class Client:
                def request(self, *args, **options):
                    self.last = Answer()
                    return self.last
            class FastHttpUser:
                def __init__(self): self.client = Client()
            locust.FastHttpUser, locust.task, locust.constant = FastHttpUser, (lambda f: f), (lambda x: x)
            sys.modules["locust"] = locust
            for path in sys.argv[2:]:
                space = {}
                exec(open(path).read(), space)
                user = space["WshUser"]()
                user.on_start()
                user.scenario()
                print("held" if user.client.last.failed is None else "failed")
            """
        try harness.write(to: directory.appendingPathComponent("harness.py"), atomically: true, encoding: .utf8)
        let files = checks.indices.map { "l\($0).py" }
        let run = try await runProgram("/usr/bin/python3", ["harness.py", answer] + files, directory: directory)
        let outcomes = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(outcomes.count == checks.count, "\(outcomes)")
        for (index, (check, holds)) in checks.enumerated() where index < outcomes.count {
            #expect(outcomes[index] == (holds ? "held" : "failed"), "expect \(check)")
        }
        // wsh itself agrees with each.
        for (index, (check, holds)) in checks.enumerated() {
            let result = try await WSHProcess.run(["--stub", "s\(index).wsh"], directory: directory)
            #expect((result.status == 0) == holds, "wsh: expect \(check): \(result.stderr)")
        }
    }

    /// A credential typed in a `let` (`let api_token = "..."`) is read from the environment, never
    /// written (it was: `self.v["api_token"] = "TYPEDTOKEN2"`); a default that is no credential is
    /// kept (`os.environ.get`); a variable in a form body is percent-encoded, so `&` and `=` in it
    /// stay data (mock tester's F24, F3).
    @Test func aTypedCredentialIsReadFromTheEnvironmentAndFormValuesAreEncoded() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        defer { ScratchDirectory.remove(directory) }
        let scenario = """
            let region = env WSH_REGION or "eu-west"
            let api_token = "TYPEDTOKEN2"
            let v = "p&q=r s+t"
            target f { base http://127.0.0.1:9; path /f; method POST; form note="x y&z=1" other=$v region=$region }
            target b { base http://127.0.0.1:9; path /b; method POST; json token=$api_token }
            call f
            call b
            """
        try scenario.write(to: directory.appendingPathComponent("s.wsh"), atomically: true, encoding: .utf8)
        let export = try await WSHProcess.run(["-c", "export locust s.wsh > l.py"], directory: directory)
        #expect(export.status == 0 && export.stderr.contains("API_TOKEN"), "\(export.stderr)")
        let file = try String(contentsOf: directory.appendingPathComponent("l.py"), encoding: .utf8)
        #expect(!file.contains("TYPEDTOKEN2") && file.contains(#"os.environ["API_TOKEN"]"#), "\(file)")
        #expect(file.contains(#"os.environ.get("WSH_REGION", "eu-west")"#), "\(file)")
        let harness = """
            import json, sys, types, urllib.parse
            locust = types.ModuleType("locust")
            class Answer:
                status_code, headers, text = 200, {}, "{}"
                def json(self): return {}
                def failure(self, message): pass
                def __enter__(self): return self
                def __exit__(self, *rest): return False
            class Client:
                def request(self, method, path, **options):
                    if path == "/f": print(json.dumps(urllib.parse.parse_qs(options["data"].decode()), sort_keys=True))
                    if path == "/b": print(options["data"].decode())
                    return Answer()
            class FastHttpUser:
                def __init__(self): self.client = Client()
            locust.FastHttpUser, locust.task, locust.constant = FastHttpUser, (lambda f: f), (lambda x: x)
            sys.modules["locust"] = locust
            space = {}
            exec(open("l.py").read(), space)
            user = space["WshUser"]()
            user.on_start()
            user.scenario()
            """
        try harness.write(to: directory.appendingPathComponent("harness.py"), atomically: true, encoding: .utf8)
        let run = try await runProgram("/usr/bin/python3", ["harness.py"], directory: directory,
                                       environment: ["API_TOKEN": "fromEnv99", "PATH": "/usr/bin:/bin"])
        let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == [#"{"note": ["x y&z=1"], "other": ["p&q=r s+t"], "region": ["eu-west"]}"#, #"{"token":"fromEnv99"}"#], "\(lines)")
    }

    @Test func theLocustfileSendsWhatWshSendsInOneProcess() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            _ = try await Self.write(server, in: directory)
            let run = try await runProgram(Self.locust, ["-f", "locustfile.py", "--headless", "-u", "2", "-r", "2", "-t", "5s", "--json", "--skip-log"],
                                           directory: directory, environment: ProcessInfo.processInfo.environment.merging(["LOCUST_KEY": Self.secret]) { $1 })
            let (requests, failures) = try Self.locustCount(String(decoding: run.output, as: UTF8.self))
            let seen = try Self.checkRequests(server)
            #expect(requests > 20 && failures == 0, "\(String(decoding: run.output, as: UTF8.self).prefix(2000))")
            // A call in flight when Locust stops reaches the server uncounted: one per user at most.
            #expect(seen >= requests && seen <= requests + 2, "the server saw \(seen), Locust counted \(requests)")
        }
    }

    @Test func theLocustfileRunsOnAMasterAndTwoWorkers() async throws {
        try await PlantedServer.with { server in
            let directory = try WSHProcess.temporaryDirectory()
            _ = try await Self.write(server, in: directory)
            let port = try LoopbackPort.free()
            let environment = ProcessInfo.processInfo.environment.merging(["LOCUST_KEY": Self.secret]) { $1 }
            async let master = runProgram(Self.locust, ["-f", "locustfile.py", "--master", "--headless", "--expect-workers", "2", "-u", "4", "-r", "4",
                                                        "-t", "5s", "--json", "--skip-log", "--master-bind-port", String(port)],
                                          directory: directory, environment: environment)
            // Each worker retries until the master listens; the master waits for both before it starts.
            async let first = runProgram(Self.locust, ["-f", "locustfile.py", "--worker", "--master-port", String(port)], directory: directory, environment: environment)
            async let second = runProgram(Self.locust, ["-f", "locustfile.py", "--worker", "--master-port", String(port)], directory: directory, environment: environment)
            let (result, _, _) = try await (master, first, second)
            let (requests, failures) = try Self.locustCount(String(decoding: result.output, as: UTF8.self))
            let seen = try Self.checkRequests(server)
            #expect(requests > 20 && failures == 0, "\(String(decoding: result.output, as: UTF8.self).prefix(2000))")
            // A worker's last report may miss the calls in flight when the master stops it: one per user at most.
            #expect(seen >= requests && seen <= requests + 4, "the server saw \(seen), Locust counted \(requests)")
        }
    }
}
