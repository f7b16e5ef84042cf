import Foundation

/// Debian's nginx on loopback ports of its own, for tests that need a real server: plain HTTP with
/// gzip, TLS with HTTP/2, TLS that requires a client certificate, and TLS with bad certificates.
///
/// Start one with `try NginxServer()` (blocking: call it through ``offPool(_:)`` from async
/// tests) and ``stop()`` it when done; it runs in the foreground (`daemon off`) as a child of the
/// test, in a temporary directory that holds its configuration, logs and ``certificates``.
///
/// Routes, the same on every port:
/// - `/data.json`: ``jsonBody`` (about 8 KB of JSON), `Content-Type: application/json`, gzip-compressed
///   when the request accepts gzip (`gzip on` for JSON and text, any size); any file put in
///   ``documentRoot`` is served likewise by its name.
/// - `/tls`: `$ssl_protocol $server_protocol $ssl_client_s_dn` as text/plain (`TLSv1.3 HTTP/2.0 CN=...`;
///   ` HTTP/1.1 ` over plain HTTP: nginx writes an empty variable as nothing here).
/// - `/connection`: the number nginx gave the connection (`$connection`), as text/plain.
/// - `/early`: `{"early":true}` as application/json at once, before any of the request's body is
///   read, whatever its size (an early answer, as a `return` gives).
/// - `/headers`: the request's `Accept-Encoding`, `User-Agent`, `Proxy-Authorization` and `Cookie`,
///   one `name: value` per line (`-` when absent).
///
/// Every request is written to ``accessLog`` as one line, with `-` for an empty variable:
/// `PORT "REQUEST LINE" STATUS TLS-PROTOCOL "CLIENT DN" encoding=CONTENT-ENCODING`.
public final class NginxServer: @unchecked Sendable {
    /// Plain HTTP.
    public let httpPort: Int
    /// TLS with HTTP/2, certificate for 127.0.0.1 signed by ``certificates``' CA.
    public let httpsPort: Int
    /// Like ``httpsPort``, and requires a client certificate signed by the CA (`ssl_verify_client
    /// on`): without one nginx answers 400.
    public let clientCertificatePort: Int
    /// TLS with a self-signed certificate.
    public let selfSignedPort: Int
    /// TLS with a certificate signed by the CA for another host name.
    public let otherHostPort: Int
    /// TLS with a certificate signed by the CA that expired in 2020.
    public let expiredPort: Int
    /// The certificates the server blocks use, made for this server.
    public let certificates: TestCertificates
    /// The directory `/` serves files from.
    public let documentRoot: URL
    /// The path of the access log.
    public let accessLog: String
    /// The body of `/data.json`.
    public let jsonBody: String
    private let process: ServerProcess

    /// `http://127.0.0.1:PORT` of the plain server.
    public var httpURL: String { "http://127.0.0.1:\(httpPort)" }
    /// `https://127.0.0.1:PORT` of the TLS server with HTTP/2.
    public var httpsURL: String { "https://127.0.0.1:\(httpsPort)" }

    /// Makes certificates, writes the configuration and starts nginx on free loopback ports; returns
    /// once every port accepts connections. Blocks the calling thread.
    public init() throws {
        guard let nginx = ServerProcess.find("nginx") else { throw ServerProcessError.notInstalled("nginx") }
        let directory = try ScratchDirectory.make("wsh-nginx")
        let certificates = try TestCertificates(in: directory)
        documentRoot = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: documentRoot, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        jsonBody = Self.makeJSON()
        try jsonBody.write(to: documentRoot.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: documentRoot.appendingPathComponent("data.json").path)
        accessLog = directory.appendingPathComponent("access.log").path
        self.certificates = certificates
        let (root, accessLog) = (documentRoot.path, accessLog)
        let file = directory.appendingPathComponent("nginx.conf")
        let (process, ports) = try ServerProcess.startOnFreePorts(6, start: { ports in
            let configuration = Self.configuration(directory: directory, ports: ports, certificates: certificates,
                                                   root: root, accessLog: accessLog)
            try configuration.write(to: file, atomically: true, encoding: .utf8)
            return try ServerProcess(nginx, ["-p", directory.path, "-c", file.path, "-e", "stderr"],
                                     errorFile: directory.appendingPathComponent("nginx.stderr"))
        }, portWasTaken: { $0.errors().contains("Address already in use") })
        self.process = process
        (httpPort, httpsPort, clientCertificatePort) = (ports[0], ports[1], ports[2])
        (selfSignedPort, otherHostPort, expiredPort) = (ports[3], ports[4], ports[5])
    }

    /// The access log's whole lines so far. nginx writes a request's line once it has sent the
    /// answer, so a client that has its response may look before the line is there: wait for it
    /// with ``accessLogLine(_:)``.
    public func accessLogLines() -> [String] {
        let text = (try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The piece after the last newline is empty, or a line still being written.
        lines.removeLast()
        return lines
    }

    /// The access log's `number`th line (from 1), once nginx has written it; nil when it has not
    /// after 60 s (a bound that only a failure reaches).
    public func accessLogLine(_ number: Int) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let lines = accessLogLines()
            if lines.count >= number { return lines[number - 1] }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops nginx (SIGTERM to the master, which stops its workers) and waits for it to end.
    public func stop() {
        process.stop()
    }

    private static func configuration(
        directory: URL, ports: [Int], certificates: TestCertificates, root: String, accessLog: String
    ) -> String {
        let work = directory.path
        func tls(_ port: Int, _ certificate: String, _ key: String, extra: String = "") -> String {
            """
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(certificate);
                    ssl_certificate_key \(key);
            \(extra)        include \(work)/routes.conf;
                }

            """
        }
        let routes = """
                root \(root);
                location = /tls { default_type text/plain; return 200 "$ssl_protocol $server_protocol $ssl_client_s_dn\\n"; }
                location = /early { client_max_body_size 0; default_type application/json; return 200 '{"early":true}'; }
                location = /connection { default_type text/plain; return 200 "$connection\\n"; }
                location = /headers {
                    default_type text/plain;
                    return 200 "accept-encoding: $http_accept_encoding\\nuser-agent: $http_user_agent\\nproxy-authorization: $http_proxy_authorization\\ncookie: $http_cookie\\n";
                }

            """
        try? routes.write(toFile: "\(work)/routes.conf", atomically: true, encoding: .utf8)
        return """
            daemon off;
            master_process on;
            worker_processes 1;
            pid \(work)/nginx.pid;
            error_log stderr warn;
            events { worker_connections 256; }
            http {
                client_body_temp_path \(work)/client_body;
                proxy_temp_path \(work)/proxy;
                fastcgi_temp_path \(work)/fastcgi;
                uwsgi_temp_path \(work)/uwsgi;
                scgi_temp_path \(work)/scgi;
                types { application/json json; text/plain txt; text/html html; }
                default_type application/octet-stream;
                log_format wsh '$server_port "$request" $status $ssl_protocol "$ssl_client_s_dn" encoding=$sent_http_content_encoding';
                access_log \(accessLog) wsh;
                # nginx 1.22 leaves TLS 1.3 out of its default.
                ssl_protocols TLSv1.2 TLSv1.3;
                gzip on;
                gzip_types application/json text/plain;
                gzip_min_length 1;
                gzip_proxied any;
                server {
                    listen 127.0.0.1:\(ports[0]);
                    include \(work)/routes.conf;
                }
            \(tls(ports[1], certificates.serverCertificate, certificates.serverKey))\
            \(tls(ports[2], certificates.serverCertificate, certificates.serverKey,
                  extra: "            ssl_verify_client on;\n            ssl_client_certificate \(certificates.caCertificate);\n"))\
            \(tls(ports[3], certificates.selfSignedCertificate, certificates.selfSignedKey))\
            \(tls(ports[4], certificates.otherHostCertificate, certificates.otherHostKey))\
            \(tls(ports[5], certificates.expiredCertificate, certificates.expiredKey))\
            }

            """
    }

    /// About 8 KB of JSON shaped like a weather forecast, so that gzip has something to compress.
    private static func makeJSON() -> String {
        let hours = (0..<96).map { hour in
            #"{"time":"2026-01-01T\#(hour % 24 < 10 ? "0" : "")\#(hour % 24):00","temperature":\#(Double(hour % 17) / 2 - 3),"wind":\#(hour % 9)}"#
        }
        return #"{"latitude":37.26,"longitude":127.03,"hourly":[\#(hours.joined(separator: ","))]}"#
    }
}
