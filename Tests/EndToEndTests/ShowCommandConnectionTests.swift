import Foundation
import Testing
import TestSupport

/// `show NAME --curl` and `--httpie` carry how the call reaches the server: `set cacert`, `set
/// cert`, `set insecure`, `set proxy`, `plugin auth digest`, and the headers the call leaves out
/// under `set compress off` and `set user-agent off`. Each printed command is run by /bin/sh
/// against the real server the call reached (nginx, tinyproxy, httpbin) and must get what the
/// call got.
@Suite struct ShowCommandConnectionTests {
    static let proxyPassword = "Pr0xy-pass-5150"
    static let digestPassword = "d1gest-pass-77"
    static let environment = ["WSH_PROXY_PW": proxyPassword, "WSH_DIGEST_PW": digestPassword]

    /// Runs `script` and then `last` as the file `session/s.wsh`, from `directory`: the script's
    /// relative paths are the session's, not those of where wsh (and the printed command) runs.
    static func run(_ script: String, then last: String, in directory: URL) async throws -> WSHProcess.Result {
        let session = directory.appendingPathComponent("session")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        try (script + "\n" + last + "\n").write(to: session.appendingPathComponent("s.wsh"), atomically: true, encoding: .utf8)
        return try await WSHProcess.run(["session/s.wsh"], environment: environment, directory: directory)
    }

    /// Runs a printed command from `directory`, HTTPie's venv on the PATH, with `extra` in its environment.
    static func send(_ command: String, from directory: URL, extra: [String: String] = [:]) async throws -> WSHProcess.Result {
        var environment = environment.merging(extra) { $1 }
        if let httpie = httpieProgram {
            environment["PATH"] = URL(fileURLWithPath: httpie).deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        }
        return try await runShell("cd '\(directory.path)' && " + command, environment: environment)
    }

    @Test func theCAAndClientCertificateAreGivenAsPathsFromWhereWshRuns() async throws {
        try await withNginx { nginx in
            let directory = try WSHProcess.temporaryDirectory()
            let certificates = directory.appendingPathComponent("session/certs")
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            for (file, name) in [(nginx.certificates.caCertificate, "ca.pem"), (nginx.certificates.clientCertificate, "client.pem"),
                                 (nginx.certificates.clientKey, "client.key")] {
                try FileManager.default.copyItem(atPath: file, toPath: certificates.appendingPathComponent(name).path)
            }
            let url = "https://127.0.0.1:\(nginx.clientCertificatePort)/tls"
            let script = "set cacert certs/ca.pem\nset cert certs/client.pem key certs/client.key\ntarget t { base \(url) }"
            let call = try await Self.run(script, then: "call t", in: directory)
            #expect(call.status == 0 && call.stdout.hasSuffix(" " + nginx.certificates.clientSubject + "\n"), "\(call.stdout)\(call.stderr)")

            let curl = try await Self.run(script, then: "show t --curl", in: directory)
            #expect(curl.stdout == """
                curl -L --compressed \\
                  --cacert session/certs/ca.pem \\
                  --cert session/certs/client.pem --key session/certs/client.key \\
                  \(url)

                """, "\(curl.stdout)\(curl.stderr)")
            let viaCurl = try await Self.send(curl.stdout, from: directory)
            #expect(viaCurl.stdout == call.stdout, "\(viaCurl.stdout)\(viaCurl.stderr)")

            let httpie = try await Self.run(script, then: "show t --httpie", in: directory)
            #expect(httpie.stdout == """
                http --ignore-stdin --follow \\
                  --verify=session/certs/ca.pem \\
                  --cert=session/certs/client.pem --cert-key=session/certs/client.key \\
                  GET \(url)

                """, "\(httpie.stdout)\(httpie.stderr)")
            guard httpieProgram != nil else { return }
            // HTTPie speaks HTTP/1.1 only; the rest of the line is what nginx saw of the TLS.
            let viaHTTPie = try await Self.send(httpie.stdout, from: directory)
            #expect(viaHTTPie.stdout.replacingOccurrences(of: "HTTP/1.1", with: "HTTP/2.0") == call.stdout,
                    "\(viaHTTPie.stdout)\(viaHTTPie.stderr)")
        }
    }

    @Test func setInsecureIsCurlsKAndHTTPiesVerifyNo() async throws {
        try await withNginx { nginx in
            let directory = try WSHProcess.temporaryDirectory()
            let url = "https://127.0.0.1:\(nginx.selfSignedPort)/tls"
            let script = "set insecure on\ntarget t { base \(url) }"
            let call = try await Self.run(script, then: "call t", in: directory)
            #expect(call.status == 0 && call.stdout.hasPrefix("TLSv1"), "\(call.stdout)\(call.stderr)")

            let curl = try await Self.run(script, then: "show t --curl", in: directory)
            #expect(curl.stdout == "curl -L --compressed -k \\\n  \(url)\n", "\(curl.stdout)")
            let viaCurl = try await Self.send(curl.stdout, from: directory)
            #expect(viaCurl.stdout == call.stdout, "\(viaCurl.stdout)\(viaCurl.stderr)")

            let httpie = try await Self.run(script, then: "show t --httpie", in: directory)
            #expect(httpie.stdout == "http --ignore-stdin --follow --verify=no \\\n  GET \(url)\n", "\(httpie.stdout)")
            guard httpieProgram != nil else { return }
            let viaHTTPie = try await Self.send(httpie.stdout, from: directory)
            #expect(viaHTTPie.stdout.replacingOccurrences(of: "HTTP/1.1", with: "HTTP/2.0") == call.stdout,
                    "\(viaHTTPie.stdout)\(viaHTTPie.stderr)")
        }
    }

    @Test func setProxyIsGivenWithItsPasswordAsTheVariable() async throws {
        try await withNginx { nginx in
            try await withTinyproxy(credentials: ("wsh", Self.proxyPassword)) { proxy in
                let directory = try WSHProcess.temporaryDirectory()
                let url = "http://127.0.0.1:\(nginx.httpPort)/tls"
                let forwarded = "GET \(url) HTTP/1.1"
                let script = "let pw = env WSH_PROXY_PW\nset proxy http://wsh:$pw@127.0.0.1:\(proxy.port)\ntarget t { base \(url) }"
                let call = try await Self.run(script, then: "call t", in: directory)
                #expect(call.status == 0, "\(call.stderr)")
                #expect(proxy.log().components(separatedBy: forwarded).count == 2, "\(proxy.log())")

                let curl = try await Self.run(script, then: "show t --curl", in: directory)
                #expect(curl.stdout == """
                    curl -L --compressed \\
                      -x "http://wsh:$WSH_PROXY_PW@127.0.0.1:\(proxy.port)" \\
                      \(url)

                    """, "\(curl.stdout)\(curl.stderr)")
                let viaCurl = try await Self.send(curl.stdout, from: directory)
                #expect(viaCurl.stdout == call.stdout, "\(viaCurl.stdout)\(viaCurl.stderr)")
                #expect(proxy.log().components(separatedBy: forwarded).count == 3, "\(proxy.log())")

                let httpie = try await Self.run(script, then: "show t --httpie", in: directory)
                #expect(httpie.stdout == """
                    http --ignore-stdin --follow \\
                      "--proxy=http:http://wsh:$WSH_PROXY_PW@127.0.0.1:\(proxy.port)" "--proxy=https:http://wsh:$WSH_PROXY_PW@127.0.0.1:\(proxy.port)" \\
                      GET \(url)

                    """, "\(httpie.stdout)\(httpie.stderr)")
                guard httpieProgram != nil else { return }
                let viaHTTPie = try await Self.send(httpie.stdout, from: directory)
                #expect(viaHTTPie.stdout == call.stdout, "\(viaHTTPie.stdout)\(viaHTTPie.stderr)")
                #expect(proxy.log().components(separatedBy: forwarded).count == 4, "\(proxy.log())")
            }
        }
    }

    /// `set proxy off` sends directly whatever `http_proxy` says, and the printed commands left
    /// that out: run where the variable is set, they went to the proxy.
    @Test func setProxyOffIsCurlsNoproxyAndHTTPiesEmptyProxies() async throws {
        try await withLoopbackServer { server in
            let directory = try WSHProcess.temporaryDirectory()
            let deadProxy = ["http_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9"]
            let script = "set proxy off\ntarget t { base \(server.baseURL); path /status/204 }"
            let curl = try await Self.run(script, then: "show t --curl", in: directory)
            #expect(curl.stdout == "curl -L --compressed \\\n  --noproxy '*' \\\n  \(server.baseURL)/status/204\n", "\(curl.stdout)\(curl.stderr)")
            let viaCurl = try await Self.send(curl.stdout.replacingOccurrences(of: "curl ", with: "curl -s -o /dev/null -w '%{http_code}' "),
                                              from: directory, extra: deadProxy)
            #expect(viaCurl.stdout == "204", "\(viaCurl.stdout)\(viaCurl.stderr)")
            let httpie = try await Self.run(script, then: "show t --httpie", in: directory)
            #expect(httpie.stdout.contains("\n  --proxy=http: --proxy=https: \\\n"), "\(httpie.stdout)\(httpie.stderr)")
            guard httpieProgram != nil else { return }
            let viaHTTPie = try await Self.send(httpie.stdout.replacingOccurrences(of: "http --ignore-stdin", with: "http --ignore-stdin --headers"),
                                                from: directory, extra: deadProxy)
            #expect(viaHTTPie.stdout.hasPrefix("HTTP/1.1 204"), "\(viaHTTPie.stdout)\(viaHTTPie.stderr)")
            #expect(server.hits("/status/204") == 2)
        }
    }

    @Test func aProxyPasswordTypedAsTextIsMaskedWithANote() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let script = "set proxy http://wsh:typed-proxy-pw@127.0.0.1:9\ntarget t { base http://127.0.0.1:9/x }"
        let curl = try await Self.run(script, then: "show t --curl", in: directory)
        #expect(curl.stdout == "curl -L --compressed \\\n  -x 'http://wsh:***@127.0.0.1:9' \\\n  http://127.0.0.1:9/x\n", "\(curl.stdout)")
        #expect(curl.stderr.contains("note: a secret with no environment variable behind it is written ***"), "\(curl.stderr)")
        let httpie = try await Self.run(script, then: "show t --httpie", in: directory)
        #expect(!httpie.stdout.contains("typed-proxy-pw") && httpie.stdout.contains("'--proxy=https:http://wsh:***@127.0.0.1:9'"),
                "\(httpie.stdout)")
    }

    @Test func pluginAuthDigestIsCurlsDigestAndHTTPiesADigest() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            let script = """
                let pw = env WSH_DIGEST_PW
                plugin auth digest "user:$pw" host 127.0.0.1
                target d { base \(httpbin.baseURL); path /digest-auth/auth/user/$pw/MD5 }
                """
            let url = "\(httpbin.baseURL)/digest-auth/auth/user/$WSH_DIGEST_PW/MD5"
            let call = try await Self.run(script, then: "call d", in: directory)
            #expect(call.status == 0 && call.stdout.contains("\"authenticated\": true"), "\(call.stdout)\(call.stderr)")

            let curl = try await Self.run(script, then: "show d --curl", in: directory)
            #expect(curl.stdout == "curl -L --compressed \\\n  \"\(url)\" \\\n  --digest -u \"user:$WSH_DIGEST_PW\"\n",
                    "\(curl.stdout)\(curl.stderr)")
            let viaCurl = try await Self.send(curl.stdout, from: directory)
            #expect(viaCurl.stdout == call.stdout, "\(viaCurl.stdout)\(viaCurl.stderr)")

            let httpie = try await Self.run(script, then: "show d --httpie", in: directory)
            #expect(httpie.stdout == "http --ignore-stdin --follow \\\n  -A digest -a \"user:$WSH_DIGEST_PW\" \\\n  GET \"\(url)\"\n",
                    "\(httpie.stdout)\(httpie.stderr)")
            guard httpieProgram != nil else { return }
            let viaHTTPie = try await Self.send(httpie.stdout, from: directory)
            let parse = { (text: String) in try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary }
            #expect(try parse(viaHTTPie.stdout) == parse(call.stdout), "\(viaHTTPie.stdout)\(viaHTTPie.stderr)")
        }
    }

    /// A Digest credential for another host is not the call's, nor after a typed Authorization.
    @Test func aDigestCredentialTheCallWouldNotSendIsLeftOut() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let other = try await Self.run("plugin auth digest user:pw-1234567 host example.com\ntarget t { base http://127.0.0.1:9/x }",
                                       then: "show t --curl", in: directory)
        #expect(other.stdout == "curl -L --compressed \\\n  http://127.0.0.1:9/x\n", "\(other.stdout)")
        let typed = try await Self.run("plugin auth digest user:pw-1234567 everywhere\ntarget t { base http://127.0.0.1:9/x; header Authorization:none }",
                                       then: "show t --curl", in: directory)
        #expect(typed.stdout == "curl -L --compressed \\\n  http://127.0.0.1:9/x \\\n  -H 'Authorization: none'\n", "\(typed.stdout)")
    }

    @Test func compressAndUserAgentOffUnsetTheToolsOwnHeaders() async throws {
        try await withNginx { nginx in
            let directory = try WSHProcess.temporaryDirectory()
            let url = "http://127.0.0.1:\(nginx.httpPort)/headers"
            let script = "set compress off\nset user-agent off\ntarget t { base \(url) }"
            let call = try await Self.run(script, then: "call t", in: directory)
            #expect(call.status == 0 && call.stdout.hasPrefix("accept-encoding: \nuser-agent: \n"), "\(call.stdout)\(call.stderr)")

            let curl = try await Self.run(script, then: "show t --curl", in: directory)
            #expect(curl.stdout == "curl -L \\\n  \(url) \\\n  -H User-Agent:\n", "\(curl.stdout)")
            let viaCurl = try await Self.send(curl.stdout, from: directory)
            #expect(viaCurl.stdout == call.stdout, "\(viaCurl.stdout)\(viaCurl.stderr)")

            let httpie = try await Self.run(script, then: "show t --httpie", in: directory)
            #expect(httpie.stdout == "http --ignore-stdin --follow \\\n  GET \(url) \\\n  Accept-Encoding: \\\n  User-Agent:\n", "\(httpie.stdout)")
            guard httpieProgram != nil else { return }
            let viaHTTPie = try await Self.send(httpie.stdout, from: directory)
            #expect(viaHTTPie.stdout == call.stdout, "\(viaHTTPie.stdout)\(viaHTTPie.stderr)")
        }
    }
}
