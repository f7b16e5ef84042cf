import Foundation
import Targets
import TestSupport
import Testing

/// ``TransportSettings/check(environment:)``: what a person typing `set cacert FILE` or `set cert
/// FILE` hears about the file at once.
@Suite struct TransportSettingsTests {
    private func certificates() async throws -> TestCertificates {
        try await offPool {
            try TestCertificates(in: try ScratchDirectory.make("wsh-certificates"))
        }
    }

    private func message(_ settings: TransportSettings, environment: [String: String] = [:]) -> String? {
        do {
            _ = try settings.check(environment: environment)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func goodFilesPassAndInsecureWarns() async throws {
        let files = try await certificates()
        let good = TransportSettings(
            caCertificateFile: files.caCertificate, clientCertificateFile: files.clientCertificate, clientKeyFile: files.clientKey)
        #expect(try good.check(environment: [:]) == nil)
        #expect(try TransportSettings(clientCertificateFile: files.clientBundle).check(environment: [:]) == nil)
        let warning = try TransportSettings(insecure: true).check(environment: [:])
        #expect(warning == "certificates are not verified: anyone between wsh and the server can read and change the traffic")
    }

    @Test func aMissingOrUnreadableCAFileIsNamed() async throws {
        #expect(message(TransportSettings(caCertificateFile: "/nonexistent/ca.pem"))
                == "cannot read CA certificates from '/nonexistent/ca.pem': no such file or directory")
        #expect(message(TransportSettings(caCertificateFile: "/tmp"))
                == "cannot read CA certificates from '/tmp': it is a directory")
    }

    @Test func aFileWithoutCertificatesIsSaidSo() async throws {
        let directory = try ScratchDirectory.make("wsh-certificates")
        let text = directory.appendingPathComponent("notes.txt").path
        try "not a certificate\n".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(message(TransportSettings(caCertificateFile: text)) == "'\(text)' holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        let broken = directory.appendingPathComponent("broken.pem").path
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: broken, atomically: true, encoding: .utf8)
        #expect(message(TransportSettings(caCertificateFile: broken)) == "a certificate in '\(broken)' is malformed")
    }

    @Test func aClientCertificateNeedsItsOwnKey() async throws {
        let files = try await certificates()
        #expect(message(TransportSettings(clientCertificateFile: files.clientCertificate))
                == "'\(files.clientCertificate)' holds no private key: name the key file too, as in set cert '\(files.clientCertificate)' key KEYFILE")
        #expect(message(TransportSettings(clientCertificateFile: files.clientCertificate, clientKeyFile: files.serverKey))
                == "the private key in '\(files.serverKey)' is not the key of the certificate in '\(files.clientCertificate)'")
    }

    @Test func anEncryptedKeyIsSaidSo() async throws {
        let files = try await certificates()
        let encrypted = files.directory.appendingPathComponent("encrypted.key").path
        try await offPool {
            try ServerProcess.run("/usr/bin/openssl", ["pkey", "-in", files.clientKey, "-out", encrypted, "-aes256", "-passout", "pass:pw"],
                                  in: files.directory)
        }
        #expect(message(TransportSettings(clientCertificateFile: files.clientCertificate, clientKeyFile: encrypted))
                == "the private key in '\(encrypted)' is encrypted: decrypt it with openssl pkey -in '\(encrypted)' -out KEY.pem")
    }

    @Test func aMissingSSLCertFileIsNamed() {
        #expect(message(TransportSettings(), environment: ["SSL_CERT_FILE": "/nonexistent/bundle.pem"])
                == "SSL_CERT_FILE names '/nonexistent/bundle.pem', which does not exist")
    }

    @Test func anUnusableProxyIsReportedWithoutItsPassword() {
        let text = message(TransportSettings(proxy: .url("https://me:hunter2@p.example")))
        #expect(text == "set proxy: a proxy reached over https:// is not supported; use http://me:***@p.example")
        #expect(message(TransportSettings(), environment: ["ALL_PROXY": "gopher://p.example"])
                == "ALL_PROXY: 'gopher' proxies are not supported; use http://, socks5:// or socks5h://")
    }

    /// A proxy user without a password gives no secret: `bob:` would mask every `bob: ` line shown.
    @Test func theProxysPasswordIsASecretAndAUserAloneIsNot() {
        #expect(TransportSettings(proxy: .url("http://bob:pw99@127.0.0.1:3128")).proxyCredentials(environment: [:])
                == ["pw99", "bob:pw99", "pw99", "bob:pw99"])
        #expect(TransportSettings(proxy: .url("http://bob@127.0.0.1:3128")).proxyCredentials(environment: [:]).isEmpty)
        #expect(TransportSettings(proxy: .url("http://bob:@127.0.0.1:3128")).proxyCredentials(environment: [:]).isEmpty)
    }
}
