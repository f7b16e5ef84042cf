import Foundation
import Targets
import TestSupport
import Testing

/// TLS settings of the transport against Debian's nginx, with certificates made by openssl.
@Suite struct TLSSettingsTests {
    @Test func aCATrustedBySettingsAnswersOverHTTP2AsCurlSeesIt() async throws {
        try await withNginx { nginx in
            let settings = TransportSettings(caCertificateFile: nginx.certificates.caCertificate)
            let response = try await get(nginx.httpsURL + "/tls", through: NetworkTransport(settings: settings, environment: [:]))
            #expect(response.status == 200)
            #expect(response.httpVersion == "HTTP/2")
            #expect(response.text == "TLSv1.3 HTTP/2.0 \n")
            let seen = try #require(await nginx.requestSeen(1))
            #expect(seen == "\(nginx.httpsPort) \"GET /tls HTTP/2.0\" 200 TLSv1.3 \"-\"")

            let curled = try await curl(["--cacert", nginx.certificates.caCertificate, nginx.httpsURL + "/tls"])
            #expect(curled == response.text)
            #expect(try await nginx.requestSeen(2) == seen)
        }
    }

    @Test func http1WhenAsked() async throws {
        try await withNginx { nginx in
            let settings = TransportSettings(caCertificateFile: nginx.certificates.caCertificate, httpVersion: .http1)
            let response = try await get(nginx.httpsURL + "/tls", through: NetworkTransport(settings: settings, environment: [:]))
            #expect(response.status == 200)
            #expect(response.httpVersion == "HTTP/1.1")
            #expect(response.text == "TLSv1.3 HTTP/1.1 \n")
            let seen = try #require(await nginx.requestSeen(1))
            _ = try await curl(["--http1.1", "--cacert", nginx.certificates.caCertificate, nginx.httpsURL + "/tls"])
            #expect(try await nginx.requestSeen(2) == seen)
        }
    }

    @Test func plainHTTPIsHTTP1() async throws {
        try await withNginx { nginx in
            let response = try await get(nginx.httpURL + "/tls", through: NetworkTransport(environment: [:]))
            #expect(response.httpVersion == "HTTP/1.1")
            #expect(response.text == " HTTP/1.1 \n")
        }
    }

    @Test func sslCertFileFromTheEnvironmentIsTrusted() async throws {
        try await withNginx { nginx in
            let transport = NetworkTransport(environment: ["SSL_CERT_FILE": nginx.certificates.caCertificate])
            let response = try await get(nginx.httpsURL + "/tls", through: transport)
            #expect(response.status == 200)
        }
    }

    @Test func sslCertDirFromTheEnvironmentIsTrusted() async throws {
        try await withNginx { nginx in
            // A directory as c_rehash leaves it: the CA under its subject hash.
            let directory = nginx.certificates.directory.appendingPathComponent("hashed")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let hash = try await offPool { () throws -> String in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
                process.arguments = ["x509", "-noout", "-subject_hash", "-in", nginx.certificates.caCertificate]
                let output = Pipe()
                process.standardOutput = output
                try process.runSerially()
                let data = output.fileHandleForReading.readToEndRetryingInterrupts()
                process.waitUntilExitPolling()
                return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            try FileManager.default.copyItem(atPath: nginx.certificates.caCertificate,
                                             toPath: directory.appendingPathComponent("\(hash).0").path)
            let transport = NetworkTransport(environment: ["SSL_CERT_DIR": directory.path])
            let response = try await get(nginx.httpsURL + "/tls", through: transport)
            #expect(response.status == 200)
        }
    }

    @Test func aSelfSignedCertificateIsSaidForPeople() async throws {
        try await withNginx { nginx in
            let url = "https://127.0.0.1:\(nginx.selfSignedPort)/tls"
            let error = try #require(await failure(of: url, through: NetworkTransport(environment: [:])))
            #expect(error.description == "certificate for 127.0.0.1 is self-signed and not trusted: use set cacert FILE or set insecure on")
            #expect(!error.isConnectionFailure)
        }
    }

    @Test func anUnknownAuthorityIsNamed() async throws {
        try await withNginx { nginx in
            let error = try #require(await failure(of: nginx.httpsURL + "/tls", through: NetworkTransport(environment: [:])))
            #expect(error.description == "certificate for 127.0.0.1 is issued by 'wsh test CA', an authority that is not trusted: use set cacert FILE or set insecure on")
        }
    }

    @Test func aCertificateForAnotherHostIsSaidSo() async throws {
        try await withNginx { nginx in
            let settings = TransportSettings(caCertificateFile: nginx.certificates.caCertificate)
            let url = "https://127.0.0.1:\(nginx.otherHostPort)/tls"
            let error = try #require(await failure(of: url, through: NetworkTransport(settings: settings, environment: [:])))
            #expect(error.description == "certificate for 127.0.0.1 is for other.example, not 127.0.0.1: use a name it was issued for, or set insecure on")
        }
    }

    @Test func anExpiredCertificateIsSaidSo() async throws {
        try await withNginx { nginx in
            let settings = TransportSettings(caCertificateFile: nginx.certificates.caCertificate)
            let url = "https://127.0.0.1:\(nginx.expiredPort)/tls"
            let error = try #require(await failure(of: url, through: NetworkTransport(settings: settings, environment: [:])))
            #expect(error.description == "certificate for 127.0.0.1 expired on 2020-01-03: renew it, or set insecure on")
            for word in libraryWords { #expect(!error.description.contains(word)) }
        }
    }

    @Test func insecureAcceptsASelfSignedCertificate() async throws {
        try await withNginx { nginx in
            let transport = NetworkTransport(settings: TransportSettings(insecure: true), environment: [:])
            let response = try await get("https://127.0.0.1:\(nginx.selfSignedPort)/tls", through: transport)
            #expect(response.status == 200)
            #expect(response.text.hasPrefix("TLSv1.3 HTTP/2.0"))
        }
    }

    @Test func aClientCertificateReachesTheServerAsCurlsDoes() async throws {
        try await withNginx { nginx in
            let certificates = nginx.certificates
            let url = "https://127.0.0.1:\(nginx.clientCertificatePort)/tls"
            // Key in the same file, and key in a file of its own.
            for (certificate, key) in [(certificates.clientBundle, nil), (certificates.clientCertificate, certificates.clientKey)] {
                let settings = TransportSettings(
                    caCertificateFile: certificates.caCertificate, clientCertificateFile: certificate, clientKeyFile: key)
                let response = try await get(url, through: NetworkTransport(settings: settings, environment: [:]))
                #expect(response.status == 200)
                #expect(response.text == "TLSv1.3 HTTP/2.0 \(certificates.clientSubject)\n")
            }
            let seen = try #require(await nginx.requestSeen(2))
            #expect(seen.hasSuffix("\"GET /tls HTTP/2.0\" 200 TLSv1.3 \"\(certificates.clientSubject)\""))
            _ = try await curl(["--cacert", certificates.caCertificate, "--cert", certificates.clientCertificate,
                                "--key", certificates.clientKey, url])
            #expect(try await nginx.requestSeen(3) == seen)
        }
    }

    @Test func withoutTheRequiredClientCertificateNginxAnswers400() async throws {
        try await withNginx { nginx in
            let settings = TransportSettings(caCertificateFile: nginx.certificates.caCertificate)
            let url = "https://127.0.0.1:\(nginx.clientCertificatePort)/tls"
            let response = try await get(url, through: NetworkTransport(settings: settings, environment: [:]))
            #expect(response.status == 400)
            #expect(response.text.contains("No required SSL certificate was sent"))
        }
    }

    @Test func aCAFileThatVanishedFailsHTTPSRequestsWithItsName() async throws {
        let settings = TransportSettings(caCertificateFile: "/nonexistent/ca.pem")
        let error = try #require(await failure(of: "https://127.0.0.1:9/", through: NetworkTransport(settings: settings, environment: [:])))
        #expect(error.description == "cannot read CA certificates from '/nonexistent/ca.pem': no such file or directory")
    }
}
