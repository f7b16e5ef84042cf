import Foundation
import TestSupport
import Testing

/// TLS failures against a real TLS server (`openssl s_server`, Debian's openssl) are said in a
/// user's terms: no BoringSSL structs, no build paths.
@Suite struct TLSErrorTests {
    @Test func aSelfSignedCertificateIsSaidPlainly() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let server = try await offPool { try OpenSSLServer(directory: directory) }
        defer { server.stop() }
        let result = try await offPool { try WSHProcess.run(["-c", "target t { base https://127.0.0.1:\(server.port) }\ncall t"]) }
        #expect(result.status == 3)
        #expect(result.stderr.contains("certificate for 127.0.0.1 is self-signed and not trusted: use set cacert FILE or set insecure on"),
                "\(result.stderr)")
        for leak in ["BoringSSL", "NIOSSL", "/.build/", ".cc:", "Error."] {
            #expect(!result.stderr.contains(leak), "\(leak) in \(result.stderr)")
        }
    }
}

/// `openssl s_server` with a fresh self-signed certificate on a free loopback port.
final class OpenSSLServer: @unchecked Sendable {
    let port: Int
    private let process = Process()

    init(directory: URL) throws {
        let key = directory.appendingPathComponent("key.pem").path
        let certificate = directory.appendingPathComponent("cert.pem").path
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        make.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                          "-days", "1", "-subj", "/CN=127.0.0.1"]
        make.standardOutput = FileHandle.nullDevice
        make.standardError = FileHandle.nullDevice
        try make.runSerially()
        make.waitUntilExitPolling()
        port = try LoopbackPort.free()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runSerially()
        // Ready when it accepts a connection; 60 s is a bound only a failure reaches.
        let deadline = Date().addingTimeInterval(60)
        while !Self.accepts(port), Date() < deadline, process.isRunning { usleep(10_000) }
        guard Self.accepts(port) else {
            stop()
            throw ServerProcessError.notListening(port: port, stderr: "openssl s_server did not start")
        }
    }

    /// SIGKILL: s_server goes on after SIGTERM.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExitPolling()
    }


    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
