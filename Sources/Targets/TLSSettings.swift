import Foundation
import NIOSSL

/// The TLS configuration that ``TransportSettings`` and the environment ask for.
///
/// Trust is the system's, replaced as OpenSSL does by `SSL_CERT_FILE` (a PEM bundle) and
/// `SSL_CERT_DIR` (colon-separated directories of hashed certificates) when set, plus the
/// certificates of ``TransportSettings/caCertificateFile``.
enum TLSSettings {
    /// Where Debian and Fedora keep the system's bundle and directory, which NIOSSL's own default
    /// also reads; used for the half that `SSL_CERT_FILE` or `SSL_CERT_DIR` does not replace.
    private static let systemBundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]
    private static let systemDirectory = "/etc/ssl/certs"

    /// The configuration for `settings`; nil when nothing differs from the defaults, so that
    /// AsyncHTTPClient's own default applies unchanged.
    static func configuration(
        _ settings: TransportSettings, environment: [String: String]
    ) throws(TransportSettingsError) -> TLSConfiguration? {
        let bundle = nonEmpty(environment["SSL_CERT_FILE"])
        let directories = nonEmpty(environment["SSL_CERT_DIR"])
        guard settings.caCertificateFile != nil || settings.insecure || settings.clientCertificateFile != nil
            || bundle != nil || directories != nil else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        if settings.insecure {
            tls.certificateVerification = .none
        }
        if bundle != nil || directories != nil {
            try replaceTrustRoots(of: &tls, bundle: bundle, directories: directories)
        }
        if let file = settings.caCertificateFile {
            tls.additionalTrustRoots.append(.certificates(try certificates(in: file, what: "CA certificates")))
        }
        if let file = settings.clientCertificateFile {
            let chain = try certificates(in: file, what: "a client certificate")
            let key = try privateKey(in: settings.clientKeyFile ?? file, certificateFile: file)
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(key)
        }
        return tls
    }

    /// The system's trust replaced by `bundle` (`SSL_CERT_FILE`) or `directories` (`SSL_CERT_DIR`),
    /// the other half staying the system's. NIOSSL reads one directory lazily, by subject hash, as
    /// OpenSSL does, only as the main trust root; further roots must be certificate files.
    private static func replaceTrustRoots(
        of tls: inout TLSConfiguration, bundle: String?, directories: String?
    ) throws(TransportSettingsError) {
        if let bundle, !FileManager.default.fileExists(atPath: bundle) {
            throw TransportSettingsError("SSL_CERT_FILE names '\(bundle)', which does not exist")
        }
        let file = bundle ?? systemBundles.first { FileManager.default.fileExists(atPath: $0) }
        // OpenSSL skips a directory of the list that is not there; so does this.
        let folders = directories.map { $0.split(separator: ":").map(String.init).filter(isDirectory) }
            ?? (isDirectory(systemDirectory) ? [systemDirectory] : [])
        guard let folder = folders.first else {
            tls.trustRoots = file.map { .file($0) } ?? .certificates([])
            return
        }
        tls.trustRoots = .file(folder)
        tls.additionalTrustRoots = file.map { [.file($0)] } ?? []
        for other in folders.dropFirst() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: other)) ?? []
            tls.additionalTrustRoots += names.filter(isHashedName).sorted().map { .file(other + "/" + $0) }
        }
    }

    /// `5ad8a5d6.0`: a certificate's name in a directory made by `openssl rehash`.
    private static func isHashedName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 8 && parts[0].allSatisfy(\.isHexDigit)
            && !parts[1].isEmpty && parts[1].allSatisfy(\.isNumber)
    }

    /// Throws what ``configuration(_:environment:)`` throws, and what building a TLS context of it
    /// finds: a client key that belongs to another certificate, an unreadable trust bundle.
    static func validate(_ settings: TransportSettings, environment: [String: String]) throws(TransportSettingsError) {
        guard let tls = try configuration(settings, environment: environment) else { return }
        do {
            _ = try NIOSSLContext(configuration: tls)
        } catch {
            // The key parsed already: one that cannot be used is another certificate's.
            if let certificate = settings.clientCertificateFile, case NIOSSLError.failedToLoadPrivateKey = error {
                throw TransportSettingsError(
                    "the private key in '\(settings.clientKeyFile ?? certificate)' is not the key of the certificate in '\(certificate)'")
            }
            throw TransportSettingsError("the TLS settings cannot be used: \(ErrorWording.tlsProblem(error) ?? ErrorWording.words(error))")
        }
    }

    /// Every certificate in the PEM file at `path`; at least one.
    private static func certificates(in path: String, what: String) throws(TransportSettingsError) -> [NIOSSLCertificate] {
        let bytes = try read(path, what: what)
        guard contains(bytes, "-----BEGIN CERTIFICATE-----") else {
            throw TransportSettingsError(bytes.first == 0x30
                ? "'\(path)' is DER, not PEM: convert it with openssl x509 -inform der -in '\(path)' -out CERT.pem"
                : "'\(path)' holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        do {
            let certificates = try NIOSSLCertificate.fromPEMBytes(bytes)
            guard !certificates.isEmpty else { throw NIOSSLError.failedToLoadCertificate }
            return certificates
        } catch {
            throw TransportSettingsError("a certificate in '\(path)' is malformed")
        }
    }

    /// The private key in the PEM file at `path`, for the certificate in `certificateFile`.
    private static func privateKey(in path: String, certificateFile: String) throws(TransportSettingsError) -> NIOSSLPrivateKey {
        let bytes = try read(path, what: "a private key")
        guard contains(bytes, "PRIVATE KEY-----") else {
            throw TransportSettingsError(path == certificateFile
                ? "'\(path)' holds no private key: name the key file too, as in set cert '\(path)' key KEYFILE"
                : "'\(path)' holds no PEM private key (-----BEGIN PRIVATE KEY-----)")
        }
        if contains(bytes, "ENCRYPTED") {
            throw TransportSettingsError(
                "the private key in '\(path)' is encrypted: decrypt it with openssl pkey -in '\(path)' -out KEY.pem")
        }
        do {
            return try NIOSSLPrivateKey(bytes: bytes, format: .pem)
        } catch {
            throw TransportSettingsError("the private key in '\(path)' is malformed")
        }
    }

    private static func read(_ path: String, what: String) throws(TransportSettingsError) -> [UInt8] {
        if isDirectory(path) {
            throw TransportSettingsError("cannot read \(what) from '\(path)': it is a directory")
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw TransportSettingsError(
                "cannot read \(what) from '\(path)': \(String(cString: strerror(errno)).lowercased())")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw TransportSettingsError("cannot read \(what) from '\(path)': \(ErrorWording.words(error))")
        }
    }

    private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
