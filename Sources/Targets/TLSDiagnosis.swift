import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Why a server's certificate failed verification, in a user's words.
///
/// BoringSSL reports only that verification failed, not why, so after a failure this reads the
/// certificate over a second handshake that judges nothing, and says what is wrong with it:
/// expired, for another name, self-signed, or from an authority that is not trusted.
enum TLSDiagnosis {
    /// Whether `error` is a server certificate that failed verification.
    static func isVerificationFailure(_ error: any Error) -> Bool {
        guard ErrorWording.tlsProblem(error) != nil else { return false }
        let text = String(describing: error)
        return ["CERTIFICATE_VERIFY_FAILED", "certificateVerif", "failedToValidateHostname", "unableToValidateCertificate"]
            .contains { text.contains($0) }
    }

    /// What is said when the certificate could not be read again (through a proxy, or the second handshake failed).
    static func untrusted(host: String) -> String {
        "certificate for \(host) is not trusted: use set cacert FILE or set insecure on"
    }

    /// What is wrong with the certificate `host:port` presents.
    static func explain(host: String, port: Int, group: any EventLoopGroup) async -> String {
        guard let leaf = await certificate(host: host, port: port, group: group) else { return untrusted(host: host) }
        return wording(leaf, host: host, now: time(nil))
    }

    /// What is wrong with `leaf`, which failed verification for `host` at `now`.
    static func wording(_ leaf: NIOSSLCertificate, host: String, now: time_t) -> String {
        if now > leaf.notValidAfter {
            return "certificate for \(host) expired on \(day(leaf.notValidAfter)): renew it, or set insecure on"
        }
        if now < leaf.notValidBefore {
            return "certificate for \(host) is not valid before \(day(leaf.notValidBefore)) (is the clock right?): set insecure on to use it"
        }
        let names = names(of: leaf)
        if !names.isEmpty, !names.contains(where: { matches($0, host: host) }) {
            let listed = names.count > 4 ? names.prefix(4).joined(separator: ", ") + ", ..." : names.joined(separator: ", ")
            return "certificate for \(host) is for \(listed), not \(host): use a name it was issued for, or set insecure on"
        }
        if leaf.subjectName == leaf.issuerName {
            return "certificate for \(host) is self-signed and not trusted: use set cacert FILE or set insecure on"
        }
        return "certificate for \(host) is issued by \(issuer(of: leaf)), an authority that is not trusted: "
            + "use set cacert FILE or set insecure on"
    }

    /// The names a certificate is for: its DNS and IP subject alternative names, else its common name.
    static func names(of certificate: NIOSSLCertificate) -> [String] {
        var names: [String] = []
        for name in certificate._subjectAlternativeNames() {
            let bytes = Array(name.contents)
            if name.nameType == .dnsName {
                names.append(String(decoding: bytes, as: UTF8.self))
            } else if name.nameType == .ipAddress, let text = ipText(bytes) {
                names.append(text)
            }
        }
        if names.isEmpty, let common = certificate.subjectName.first(where: { $0.type == .commonName }) {
            names.append(common.value)
        }
        return names
    }

    /// Whether certificate name `name` (`*.example.com` covers one label) covers `host`.
    private static func matches(_ name: String, host: String) -> Bool {
        let name = name.lowercased(), host = host.lowercased()
        if name == host { return true }
        if let address = ipBytes(host), let other = ipBytes(name) { return address == other }
        guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
        return host[dot...] == name.dropFirst()
    }

    private static func issuer(of certificate: NIOSSLCertificate) -> String {
        let issuer = certificate.issuerName
        if let common = issuer.first(where: { $0.type == .commonName }) { return "'\(common.value)'" }
        return issuer.isEmpty ? "an unnamed issuer" : "'" + issuer.map(\.value).joined(separator: ", ") + "'"
    }

    private static func day(_ time: time_t) -> String {
        var seconds = time
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    private static func ipText(_ bytes: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : bytes.count == 16 ? AF_INET6 : -1
        guard family >= 0, inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func ipBytes(_ text: String) -> [UInt8]? {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = [UInt8](repeating: 0, count: 4), v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &v4) == 1 { return v4 }
        if inet_pton(AF_INET6, text, &v6) == 1 { return v6 }
        return nil
    }

    /// The certificate `host:port` presents, read by a handshake that rejects it once read;
    /// nil when no certificate came within five seconds.
    private static func certificate(host: String, port: Int, group: any EventLoopGroup) async -> NIOSSLCertificate? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // Verification stays on so that the custom callback below runs; it refuses every certificate.
        configuration.certificateVerification = .fullVerification
        guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
        let loop = group.next()
        let presented = loop.makePromise(of: NIOSSLCertificate?.self)
        let serverName = ipBytes(host) == nil ? host : nil
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(
                        context: context, serverHostname: serverName,
                        customVerificationCallback: { certificates, verdict in
                            presented.succeed(certificates.first)
                            verdict.succeed(.failed)
                        })
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let timeout = loop.scheduleTask(in: .seconds(5)) { presented.succeed(nil) }
        defer { timeout.cancel() }
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            // A handshake that fails before the certificate (another protocol) ends with the channel.
            channel.closeFuture.whenComplete { _ in presented.succeed(nil) }
            let leaf = try await presented.futureResult.get()
            channel.close(promise: nil)
            return leaf
        } catch {
            presented.succeed(nil)
            return nil
        }
    }
}
