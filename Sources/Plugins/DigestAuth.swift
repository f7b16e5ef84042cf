import Crypto
import Foundation

/// The hash algorithms of HTTP Digest authentication (RFC 7616 3.3).
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"

    /// The algorithm a challenge names, compared without case; `MD5` when it names none; `nil` for
    /// one not supported (SHA-512-256).
    public init?(challengeValue: String?) {
        guard let value = challengeValue else {
            self = .md5
            return
        }
        guard let algorithm = Self.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) else { return nil }
        self = algorithm
    }

    /// Whether A1 takes the nonce and cnonce too (the `-sess` variants).
    public var isSession: Bool {
        self == .md5Session || self == .sha256Session
    }

    /// The hash of `text`'s UTF-8, as lowercase hexadecimal.
    public func hash(_ text: String) -> String {
        hash(Data(text.utf8))
    }

    /// The hash of `bytes`, as lowercase hexadecimal.
    public func hash(_ bytes: Data) -> String {
        switch self {
        case .md5, .md5Session: Self.hex(Insecure.MD5.hash(data: bytes))
        case .sha256, .sha256Session: Self.hex(SHA256.hash(data: bytes))
        }
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A `WWW-Authenticate: Digest ...` challenge (RFC 7616 3.3).
public struct DigestChallenge: Sendable, Equatable {
    /// The protection space, shown to people and part of A1.
    public var realm: String
    /// The server's nonce.
    public var nonce: String
    /// Returned unchanged, when the server gave one.
    public var opaque: String?
    /// The hash algorithm.
    public var algorithm: DigestAlgorithm
    /// Whether `algorithm` was written in the challenge (it is then named in the answer too).
    public var namesAlgorithm: Bool
    /// The qop values offered (`auth`, `auth-int`), lowercased; empty for RFC 2069's legacy digest.
    public var qop: [String]
    /// Whether the previous nonce was refused only for being old (`stale=true`): the credentials were right.
    public var stale: Bool
    /// Whether the server wants the user name hashed (`userhash=true`).
    public var userhash: Bool

    /// The Digest challenges in these `WWW-Authenticate` field values, in order, leaving out those
    /// with no nonce or an algorithm not supported.
    public static func challenges(inFields fields: [String]) -> [DigestChallenge] {
        AuthChallenge.challenges(in: fields).compactMap { challenge in
            guard challenge.scheme.lowercased() == "digest" else { return nil }
            return DigestChallenge(parameters: challenge.parameters)
        }
    }

    /// The algorithms named by the Digest challenges of `fields` that this client does not
    /// implement (`SHA-512`, `SHA-512-256`), as written, each once.
    public static func unsupportedAlgorithms(inFields fields: [String]) -> [String] {
        var names: [String] = []
        for challenge in AuthChallenge.challenges(in: fields) where challenge.scheme.lowercased() == "digest" {
            guard let name = challenge.parameters["algorithm"], DigestAlgorithm(challengeValue: name) == nil,
                  !names.contains(name) else { continue }
            names.append(name)
        }
        return names
    }

    /// The first usable Digest challenge of `fields`, as RFC 7616 3.7 says a client picks.
    public static func preferred(inFields fields: [String]) -> DigestChallenge? {
        challenges(inFields: fields).first { $0.chosenQop != nil }
    }

    /// A challenge from its parameters by lowercased name; `nil` without a nonce or with an unsupported algorithm.
    init?(parameters: [String: String]) {
        guard let nonce = parameters["nonce"], let algorithm = DigestAlgorithm(challengeValue: parameters["algorithm"]) else {
            return nil
        }
        self.realm = parameters["realm"] ?? ""
        self.nonce = nonce
        self.opaque = parameters["opaque"]
        self.algorithm = algorithm
        self.namesAlgorithm = parameters["algorithm"] != nil
        self.qop = (parameters["qop"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        self.stale = parameters["stale"]?.lowercased() == "true"
        self.userhash = parameters["userhash"]?.lowercased() == "true"
    }

    /// The qop this client answers with: `auth` when offered, else `auth-int`, else none (RFC 2069's
    /// digest) when no qop is offered; `nil` when only qop values it does not know are offered.
    var chosenQop: DigestQop? {
        if qop.isEmpty { return DigestQop.legacy }
        if qop.contains("auth") { return .auth }
        if qop.contains("auth-int") { return .authInt }
        return nil
    }
}

/// The quality of protection an answer uses.
enum DigestQop: String {
    /// No qop: RFC 2069's digest, with no nonce count or cnonce.
    case legacy = ""
    /// The request line is protected.
    case auth = "auth"
    /// The body too.
    case authInt = "auth-int"
}

/// Computes a Digest `Authorization` header (RFC 7616 3.4).
public enum DigestAuth {
    /// What one answer to `challenge` needs besides the challenge and credentials.
    public struct RequestInfo: Sendable {
        /// The method, as on the request line.
        public var method: String
        /// The request target, as on the request line (`/dir/index.html?x=1`).
        public var uri: String
        /// The body, hashed for qop `auth-int`.
        public var body: Data
        /// The nonce count, from 1 for each nonce.
        public var nonceCount: Int
        /// The client nonce.
        public var cnonce: String

        /// Describes one request.
        public init(method: String, uri: String, body: Data = Data(), nonceCount: Int, cnonce: String) {
            self.method = method
            self.uri = uri
            self.body = body
            self.nonceCount = nonceCount
            self.cnonce = cnonce
        }
    }

    /// The `Authorization` header value answering `challenge` for `user` and `password`, or `nil`
    /// when the challenge offers only qop values this client does not know.
    public static func authorization(
        challenge: DigestChallenge, user: String, password: String, request: RequestInfo
    ) -> String? {
        guard let qop = challenge.chosenQop else { return nil }
        let algorithm = challenge.algorithm
        let nc = nonceCountText(request.nonceCount)
        let response = response(challenge: challenge, user: user, password: password, request: request, qop: qop)
        var fields: [String] = []
        if challenge.userhash {
            fields.append("username=" + quoted(algorithm.hash(user + ":" + challenge.realm)))
        } else if needsExtendedNotation(user) {
            fields.append("username*=UTF-8''" + percentEncoded(user))
        } else {
            fields.append("username=" + quoted(user))
        }
        fields += ["realm=" + quoted(challenge.realm), "uri=" + quoted(request.uri)]
        if challenge.namesAlgorithm { fields.append("algorithm=" + algorithm.rawValue) }
        fields.append("nonce=" + quoted(challenge.nonce))
        if qop != .legacy { fields += ["nc=" + nc, "cnonce=" + quoted(request.cnonce), "qop=" + qop.rawValue] }
        fields.append("response=" + quoted(response))
        if let opaque = challenge.opaque { fields.append("opaque=" + quoted(opaque)) }
        if challenge.userhash { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// The `response` parameter: KD(H(A1), nonce:nc:cnonce:qop:H(A2)), or KD(H(A1), nonce:H(A2)) without qop.
    static func response(challenge: DigestChallenge, user: String, password: String, request: RequestInfo, qop: DigestQop) -> String {
        let algorithm = challenge.algorithm
        var ha1 = algorithm.hash(user + ":" + challenge.realm + ":" + password)
        if algorithm.isSession { ha1 = algorithm.hash(ha1 + ":" + challenge.nonce + ":" + request.cnonce) }
        var a2 = request.method + ":" + request.uri
        if qop == .authInt { a2 += ":" + algorithm.hash(request.body) }
        let ha2 = algorithm.hash(a2)
        guard qop != .legacy else { return algorithm.hash(ha1 + ":" + challenge.nonce + ":" + ha2) }
        let nc = nonceCountText(request.nonceCount)
        return algorithm.hash([ha1, challenge.nonce, nc, request.cnonce, qop.rawValue, ha2].joined(separator: ":"))
    }

    /// A fresh client nonce: 16 random bytes as hexadecimal.
    public static func makeCnonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        let bytes = (0..<32).map { _ in digits[Int(generator.next() % 16)] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The request target of `url` as it goes on the request line: path and query, `/` when there is no path.
    public static func requestURI(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let start = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let target = rest[start...]
        return target.first == "?" ? "/" + target : String(target)
    }

    /// `nc`: eight lowercase hexadecimal digits.
    static func nonceCountText(_ count: Int) -> String {
        let hex = String(UInt32(truncatingIfNeeded: max(count, 0)), radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    /// A quoted string, `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// Whether a user name cannot go in a plain quoted string: non-ASCII, or a control character.
    private static func needsExtendedNotation(_ user: String) -> Bool {
        user.utf8.contains { $0 >= 0x7F || $0 < 0x20 }
    }

    /// RFC 8187's value characters, the rest percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
