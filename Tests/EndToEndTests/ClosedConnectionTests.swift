import Foundation
import Testing
import TestSupport

/// Connections a server closes under a request: said in the user's words (never the network
/// library's), and a request that met a stale kept-alive connection sent again on a new one.
@Suite struct ClosedConnectionTests {
    private static let replies: [String: [UInt8]] = [
        // Closed right after the answer, without `Connection: close` (as a server may, RFC 9112 9.6).
        "/x": Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}".utf8),
        // Closed with no answer at all.
        "/no-answer": [],
        // As a proxy: hangs up on a CONNECT to 127.0.0.1:9, and on a plain http request to it.
        "127.0.0.1:9": [],
        "http://127.0.0.1:9/x": [],
        // A Latin-1 `é` in the Location, as some old servers send it.
        "/latin1": Array("HTTP/1.1 302 Found\r\nLocation: /caf".utf8) + [0xE9]
            + Array("\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8),
        // As a proxy: refuses a CONNECT to 127.0.0.1:8 (a port policy).
        "127.0.0.1:8": Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 6\r\nConnection: close\r\n\r\ndenied".utf8),
        // A redirect to a port nothing listens on.
        "/away": Array("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/there\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8),
    ]

    /// A server that closes each connection 5 ms after its answer, without `Connection: close`, and
    /// a script that keeps the event loop busy for longer than that between POSTs: the close has
    /// arrived but is unread when the next POST takes the pooled connection, which fails before any
    /// answer. It is sent once more on a new connection, body and all, as curl and browsers send it.
    /// Before, the first such POST failed ("closed the kept-alive connection without answering").
    @Test func aPOSTOnAConnectionClosedAfterItsLastAnswerIsSentOnceMoreWithItsBody() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let script = """
            import socket, sys, threading, time
            def answer(connection):
                data = b""
                while b"\\r\\n\\r\\n" not in data:
                    piece = connection.recv(65536)
                    if not piece:
                        return
                    data += piece
                head, body = data.split(b"\\r\\n\\r\\n", 1)
                length = int([l.split(b":")[1] for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length")][0])
                while len(body) < length:
                    piece = connection.recv(65536)
                    if not piece:
                        return
                    body += piece
                connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body) + body)
                time.sleep(0.005)
                connection.close()
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", int(sys.argv[1])))
            listener.listen(64)
            while True:
                connection, _ = listener.accept()
                threading.Thread(target=answer, args=(connection,), daemon=True).start()
            """
        try script.write(to: directory.appendingPathComponent("close.py"), atomically: true, encoding: .utf8)
        let port = try LoopbackPort.free()
        let server = try ServerProcess("/usr/bin/python3", [directory.appendingPathComponent("close.py").path, "\(port)"],
                                       errorFile: directory.appendingPathComponent("server.err"))
        defer { server.stop() }
        try server.waitForPorts([port])
        // `repeat 20000` takes 100 ms or more without yielding the loop: the close has surely come.
        let (result, _) = try await runScript("""
            repeat 5 {
              post http://127.0.0.1:\(port)/x a=1 > /dev/null
              expect .a == "1"
              repeat 20000 { let z = 1 }
            }

            """, directory: directory)
        #expect(result.status == 0, "\(result.stderr) \(server.errors())")
        #expect(!result.stderr.contains("closed the"), "\(result.stderr)")
        // Each POST sent again is said: had the server read it, it was done twice (review-rwire3 M2).
        #expect(result.stderr.components(separatedBy: "note: POST http://127.0.0.1:\(port)/x met a kept-alive connection the server had closed without answering").count == 5,
                "\(result.stderr)")
    }

    /// A proxy's refusal of a tunnel says its status, and for a 403 that many proxies open tunnels
    /// only to port 443 (AsyncHTTPClient drops the status: wsh asks the proxy once more).
    @Test func aRefusedTunnelSaysTheProxysStatus() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let proxy = "127.0.0.1:\(server.port)"
            let result = try await WSHProcess.run(["-c", "set proxy http://\(proxy)\nget https://127.0.0.1:8/x"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("the proxy at \(proxy) refused to open a tunnel (CONNECT) to 127.0.0.1:8: "
                + "it answered 403 Forbidden (many proxies open tunnels only to port 443)"), "\(result.stderr)")
        }
    }

    /// The error of a request a redirect led to names the URL it went to, and says it was redirected.
    @Test func aFailureAfterARedirectNamesWhereItWasRedirected() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let result = try await WSHProcess.run(["-c", "get \(server.baseURL)/away"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("(redirected by a 302 to http://127.0.0.1:9/there)"), "\(result.stderr)")
        }
    }

    /// A timeout after a redirect names the URL once: the message names it, the note only says
    /// there was a redirect.
    @Test func aTimeoutAfterARedirectNamesTheURLOnce() async throws {
        try await TestServer.with { server in
            let result = try await WSHProcess.run(["-c", "set timeout 200ms\nget \(server.baseURL)/redirect-to?url=/never"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("GET \(server.baseURL)/never timed out after 200 ms (redirected by a 302)\n"), "\(result.stderr)")
            #expect(!result.stderr.contains("(redirected by a 302 to"), "\(result.stderr)")
        }
    }

    /// A proxy that refuses the tunnel and then never answers the second CONNECT (which reads the
    /// status) is waited for no longer than the request's timeout, not 5 s.
    @Test func theSecondConnectOfARefusedTunnelKeepsToTheTimeout() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let script = """
            import socket, sys
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", int(sys.argv[1])))
            listener.listen(8)
            refused = False
            held = []
            while True:
                connection, _ = listener.accept()
                if refused:
                    held.append(connection)
                    continue
                # The first request is refused; a connection that sends none is the test's wait for the port.
                if connection.recv(65536):
                    refused = True
                    connection.sendall(b"HTTP/1.1 403 Forbidden\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n")
                connection.close()
            """
        try script.write(to: directory.appendingPathComponent("refuser.py"), atomically: true, encoding: .utf8)
        let port = try LoopbackPort.free()
        let proxy = try ServerProcess("/usr/bin/python3", [directory.appendingPathComponent("refuser.py").path, "\(port)"],
                                      errorFile: directory.appendingPathComponent("proxy.err"))
        defer { proxy.stop() }
        try proxy.waitForPorts([port])
        let (result, elapsed) = try await runScript("set proxy http://127.0.0.1:\(port)\nset timeout 1s\nget https://127.0.0.1:8/x\n",
                                                    directory: directory)
        #expect(result.status == 3)
        #expect(result.stderr.contains("the proxy at 127.0.0.1:\(port) refused to open a tunnel (CONNECT) to 127.0.0.1:8"), "\(result.stderr)")
        #expect(elapsed < .seconds(4), "\(elapsed)")
    }

    @Test func aConnectionClosedWithNoAnswerSaysSo() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let result = try await WSHProcess.run(["-c", "get \(server.baseURL)/no-answer"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("the server closed the connection without answering GET \(server.baseURL)/no-answer"),
                    "\(result.stderr)")
        }
    }

    @Test func aProxyThatHangsUpIsNamedAsTheProxy() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let proxy = "127.0.0.1:\(server.port)"
            let plain = try await WSHProcess.run(["-c", "set proxy http://\(proxy)\nget http://127.0.0.1:9/x"])
            #expect(plain.status == 3)
            #expect(plain.stderr.contains("the proxy at \(proxy) closed the connection without answering GET http://127.0.0.1:9/x"),
                    "\(plain.stderr)")
            let tunnel = try await WSHProcess.run(["-c", "set proxy http://\(proxy)\nget https://127.0.0.1:9/x"])
            #expect(tunnel.status == 3)
            #expect(tunnel.stderr.contains("the proxy at \(proxy) closed the connection before opening a tunnel (CONNECT) to 127.0.0.1:9"),
                    "\(tunnel.stderr)")
        }
    }

    /// A web server named as a SOCKS5 proxy answers the greeting with an HTTP error page (`H`, 72).
    @Test func aSOCKSProxyThatIsNotOneIsSaidInWords() async throws {
        try await RawReplyServer.with(replies: [:], greeting: RawReplyServer.response(status: "400 Bad Request")) { server in
            let result = try await WSHProcess.run(["-c", "set timeout 5s\nset proxy socks5://127.0.0.1:\(server.port)\nget http://127.0.0.1:9/x"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("the proxy at 127.0.0.1:\(server.port) did not answer as a SOCKS5 proxy"), "\(result.stderr)")
            #expect(!result.stderr.contains("InvalidProtocolVersion"), "\(result.stderr)")
        }
    }

    /// The HTTP library reads the byte as U+FFFD: following that would call another URL than the server named.
    @Test func aLocationWithAByteThatIsNotUTF8IsNotFollowedElsewhere() async throws {
        try await RawReplyServer.with(replies: Self.replies) { server in
            let result = try await WSHProcess.run(["-c", "get \(server.baseURL)/latin1"])
            #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("Location holds U+FFFD"), "\(result.stderr)")
            #expect(!result.stderr.contains("%EF%BF%BD"), "\(result.stderr)")
        }
    }
}
