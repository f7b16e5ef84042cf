import Foundation

/// Certificates made with `openssl` in a directory, for TLS tests: a CA, server certificates it
/// signed, a self-signed one, an expired one, and a client certificate. Keys are P-256, not encrypted.
public struct TestCertificates: Sendable {
    /// The directory that holds every file below.
    public let directory: URL
    /// The CA's certificate (PEM): what `set cacert` names to trust the servers below.
    public let caCertificate: String
    /// Signed by the CA, for 127.0.0.1 and localhost, and its key.
    public let serverCertificate: String
    public let serverKey: String
    /// Signed by the CA, for `other.example` only: a host name mismatch on 127.0.0.1.
    public let otherHostCertificate: String
    public let otherHostKey: String
    /// Signed by the CA, for 127.0.0.1 and localhost, valid only on 2 January 2020.
    public let expiredCertificate: String
    public let expiredKey: String
    /// Self-signed, for 127.0.0.1 and localhost.
    public let selfSignedCertificate: String
    public let selfSignedKey: String
    /// Signed by the CA for client authentication; subject ``clientSubject``.
    public let clientCertificate: String
    public let clientKey: String
    /// The client certificate followed by its key, in one file.
    public let clientBundle: String
    /// The client certificate's subject as nginx's `$ssl_client_s_dn` writes it.
    public let clientSubject = "CN=wsh test client,O=wsh"

    /// Makes every certificate in `directory`, which must exist.
    public init(in directory: URL) throws {
        guard let openssl = ServerProcess.find("openssl") else { throw ServerProcessError.notInstalled("openssl") }
        self.directory = directory
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func run(_ arguments: String...) throws { try ServerProcess.run(openssl, arguments, in: directory) }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let names = "subjectAltName=IP:127.0.0.1,DNS:localhost"

        caCertificate = path("ca.pem")
        try ServerProcess.run(openssl, ["req", "-x509"] + key + [
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=wsh test CA"], in: directory)

        func signed(_ name: String, subject: String, extensions: String, dates: (String, String)? = nil) throws {
            try ServerProcess.run(openssl, ["req"] + key + [
                "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject], in: directory)
            try extensions.write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
            if let (start, end) = dates {
                // `openssl x509` cannot date a certificate in the past; `openssl ca` can.
                try Self.caConfiguration(directory).write(toFile: path("ca.cnf"), atomically: true, encoding: .utf8)
                _ = FileManager.default.createFile(atPath: path("index.txt"), contents: nil)
                try "01\n".write(toFile: path("serial"), atomically: true, encoding: .utf8)
                try run("ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "\(name).csr",
                        "-out", "\(name).pem", "-startdate", start, "-enddate", end, "-extfile", "\(name).ext", "-notext")
            } else {
                try run("x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                        "-out", "\(name).pem", "-days", "2", "-extfile", "\(name).ext")
            }
        }
        let server = "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
        try signed("server", subject: "/CN=127.0.0.1", extensions: server + names + "\n")
        serverCertificate = path("server.pem")
        serverKey = path("server.key")
        try signed("other-host", subject: "/CN=other.example", extensions: server + "subjectAltName=DNS:other.example\n")
        otherHostCertificate = path("other-host.pem")
        otherHostKey = path("other-host.key")
        try signed("expired", subject: "/CN=127.0.0.1", extensions: server + names + "\n",
                   dates: ("20200102000000Z", "20200103000000Z"))
        expiredCertificate = path("expired.pem")
        expiredKey = path("expired.key")
        try signed("client", subject: "/O=wsh/CN=wsh test client",
                   extensions: "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
        clientCertificate = path("client.pem")
        clientKey = path("client.key")
        clientBundle = path("client-bundle.pem")
        let bundle = try String(contentsOfFile: clientCertificate, encoding: .utf8) + String(contentsOfFile: clientKey, encoding: .utf8)
        try bundle.write(toFile: clientBundle, atomically: true, encoding: .utf8)

        selfSignedCertificate = path("self-signed.pem")
        selfSignedKey = path("self-signed.key")
        try ServerProcess.run(openssl, ["req", "-x509"] + key + [
            "-keyout", "self-signed.key", "-out", "self-signed.pem", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", names], in: directory)
        // nginx's workers run as nobody when the tests run as root.
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path(file))
        }
    }

    private static func caConfiguration(_ directory: URL) -> String {
        """
        [ca]
        default_ca = test
        [test]
        dir = \(directory.path)
        database = \(directory.path)/index.txt
        new_certs_dir = \(directory.path)
        serial = \(directory.path)/serial
        default_md = sha256
        policy = any
        copy_extensions = none
        [any]
        commonName = supplied
        """
    }
}
