import Foundation
@testable import Plugins
import Synchronization
import Targets
import Testing

/// Digest authentication (RFC 7616): challenges read as written, answers computed as the RFC's
/// worked examples give them, and the plugin answering, reusing and re-answering challenges.
@Suite struct DigestAuthTests {
    /// RFC 7616 section 3.9.1: the server offers SHA-256, then MD5.
    static let rfcChallenges = [
        #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#,
        #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#,
    ]
    static let rfcCnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    static let rfcRequest = DigestAuth.RequestInfo(method: "GET", uri: "/dir/index.html", nonceCount: 1, cnonce: rfcCnonce)

    /// The parameters of an Authorization header this client wrote, read back with the challenge parser.
    func parameters(_ authorization: String?) throws -> [String: String] {
        let header = try #require(authorization)
        let parsed = try #require(AuthChallenge.challenges(in: [header]).first)
        #expect(parsed.scheme == "Digest")
        return parsed.parameters
    }

    @Test func rfc7616WorkedExampleWithSHA256AndMD5() throws {
        let challenges = DigestChallenge.challenges(inFields: Self.rfcChallenges)
        #expect(challenges.map(\.algorithm) == [.sha256, .md5])
        #expect(DigestChallenge.preferred(inFields: Self.rfcChallenges)?.algorithm == .sha256)
        let expected: [DigestAlgorithm: String] = [
            .sha256: "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
            .md5: "8ca523f5e9506fed4657c9700eebdbec",
        ]
        for challenge in challenges {
            let header = DigestAuth.authorization(challenge: challenge, user: "Mufasa", password: "Circle of Life", request: Self.rfcRequest)
            let sent = try parameters(header)
            #expect(sent["response"] == expected[challenge.algorithm], "\(challenge.algorithm)")
            #expect(sent["username"] == "Mufasa")
            #expect(sent["realm"] == "http-auth@example.org")
            #expect(sent["uri"] == "/dir/index.html")
            #expect(sent["algorithm"] == challenge.algorithm.rawValue)
            #expect(sent["nonce"] == "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v")
            #expect(sent["nc"] == "00000001")
            #expect(sent["cnonce"] == Self.rfcCnonce)
            #expect(sent["qop"] == "auth")
            #expect(sent["opaque"] == "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS")
            #expect(header?.contains("Circle") == false)
        }
    }

    @Test func rfc2617ExampleAndTheLegacyDigestWithoutQop() throws {
        let withQop = try #require(DigestChallenge.preferred(inFields: [
            #"Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#,
        ]))
        let request = DigestAuth.RequestInfo(method: "GET", uri: "/dir/index.html", nonceCount: 1, cnonce: "0a4f113b")
        let sent = try parameters(DigestAuth.authorization(challenge: withQop, user: "Mufasa", password: "Circle Of Life", request: request))
        #expect(sent["response"] == "6629fae49393a05397450978507c4ef1")
        #expect(sent["algorithm"] == nil, "not named in the challenge, not named in the answer")

        var legacy = withQop
        legacy.qop = []
        let legacySent = try parameters(DigestAuth.authorization(challenge: legacy, user: "Mufasa", password: "Circle Of Life", request: request))
        // MD5(HA1:nonce:HA2), computed with Python's hashlib.
        #expect(legacySent["response"] == "670fd8c2df070c60b045671b8b24ff02")
        #expect(legacySent["nc"] == nil && legacySent["cnonce"] == nil && legacySent["qop"] == nil)
    }

    /// Values computed with Python's hashlib from RFC 7616 3.9.1's inputs.
    @Test func sessionVariantsAuthIntAndUserhash() throws {
        var challenge = try #require(DigestChallenge.preferred(inFields: Self.rfcChallenges))
        challenge.algorithm = .sha256Session
        #expect(try parameters(DigestAuth.authorization(challenge: challenge, user: "Mufasa", password: "Circle of Life", request: Self.rfcRequest))["response"]
            == "2fd51b3a77ad75bad6afad6003e818d767133c46d9e2749e7f5232ae1ea3efd7")
        challenge.algorithm = .md5Session
        #expect(try parameters(DigestAuth.authorization(challenge: challenge, user: "Mufasa", password: "Circle of Life", request: Self.rfcRequest))["response"]
            == "e783283f46242139c486a698fec7211d")

        challenge.algorithm = .md5
        challenge.qop = ["auth-int"]
        let post = DigestAuth.RequestInfo(method: "POST", uri: "/dir/index.html", body: Data("hello".utf8), nonceCount: 2, cnonce: Self.rfcCnonce)
        let authInt = try parameters(DigestAuth.authorization(challenge: challenge, user: "Mufasa", password: "Circle of Life", request: post))
        #expect(authInt["response"] == "2ead7d34ddf3b4f0a376c493fd5e7ba8")
        #expect(authInt["qop"] == "auth-int" && authInt["nc"] == "00000002")

        challenge.qop = ["auth"]
        challenge.algorithm = .sha256
        challenge.userhash = true
        let hashed = try parameters(DigestAuth.authorization(challenge: challenge, user: "Mufasa", password: "Circle of Life", request: Self.rfcRequest))
        #expect(hashed["username"] == "a947aad205e80e429958a387394944c6b496301e79f89d35a4cc23b6ee12b5b6")
        #expect(hashed["userhash"] == "true")

        challenge.qop = ["auth-conf"]
        #expect(DigestAuth.authorization(challenge: challenge, user: "u", password: "p", request: Self.rfcRequest) == nil)
    }

    @Test func userNamesThatNeedEscapingOrEncoding() throws {
        let challenge = try #require(DigestChallenge.preferred(inFields: Self.rfcChallenges))
        let quoted = try #require(DigestAuth.authorization(challenge: challenge, user: #"a"b\c"#, password: "p", request: Self.rfcRequest))
        #expect(quoted.contains(#"username="a\"b\\c""#))
        #expect(try parameters(quoted)["username"] == #"a"b\c"#)
        let unicode = try #require(DigestAuth.authorization(challenge: challenge, user: "Jäsøn Doe", password: "p", request: Self.rfcRequest))
        #expect(unicode.contains("username*=UTF-8''J%C3%A4s%C3%B8n%20Doe"))
    }

    struct ChallengeRow: Sendable, CustomStringConvertible {
        var fields: [String]
        var schemes: [String]
        var digest: [String: String]?
        var description: String { fields.joined(separator: " | ") }
    }

    static let challengeRows: [ChallengeRow] = [
        ChallengeRow(fields: [#"Basic realm="a", DIGEST Realm="b", NONCE="n", qop="auth""#], schemes: ["Basic", "DIGEST"],
                     digest: ["realm": "b", "nonce": "n", "qop": "auth"]),
        ChallengeRow(fields: [#"Digest realm="say \"hi\", \\ ok", nonce=abc, stale=TRUE"#], schemes: ["Digest"],
                     digest: ["realm": #"say "hi", \ ok"#, "nonce": "abc", "stale": "TRUE"]),
        ChallengeRow(fields: ["Negotiate abc==, Digest nonce=x", "Bearer tok68/+x="], schemes: ["Negotiate", "Digest", "Bearer"],
                     digest: ["nonce": "x"]),
        ChallengeRow(fields: ["Digest   nonce = \"x\" ,, realm=r ,"], schemes: ["Digest"], digest: ["nonce": "x", "realm": "r"]),
        ChallengeRow(fields: ["Digest nonce=\"first\", nonce=\"second\""], schemes: ["Digest"], digest: ["nonce": "first"]),
        ChallengeRow(fields: ["Digest realm=\"unterminated"], schemes: ["Digest"], digest: ["realm": "unterminated"]),
        ChallengeRow(fields: ["", " , ,", "=\"\\", "Digest =", "\u{0}\u{FF}"], schemes: ["Digest"], digest: [:]),
    ]

    @Test(arguments: challengeRows) func challengesParse(_ row: ChallengeRow) {
        let challenges = AuthChallenge.challenges(in: row.fields)
        #expect(challenges.map(\.scheme) == row.schemes)
        #expect(challenges.first { $0.scheme.lowercased() == "digest" }?.parameters == row.digest)
    }

    @Test func unusableDigestChallengesAreSkipped() {
        let fields = [#"Digest realm="r", nonce="n", algorithm=SHA-512-256, Digest realm="r""#, #"Digest nonce="ok", algorithm=md5-SESS"#]
        let challenges = DigestChallenge.challenges(inFields: fields)
        #expect(challenges.map(\.nonce) == ["ok"])
        #expect(challenges.first?.algorithm == .md5Session)
        // Named as written, once each, for the note that says why nothing answered.
        #expect(DigestChallenge.unsupportedAlgorithms(inFields: fields + [#"Digest nonce="x", algorithm=SHA-512-256"#]) == ["SHA-512-256"])
        #expect(DigestChallenge.unsupportedAlgorithms(inFields: [#"Digest nonce="x", algorithm=SHA-256"#, #"Basic realm="r""#]).isEmpty)
    }

    @Test func requestURIIsPathAndQuery() {
        #expect(DigestAuth.requestURI(of: "http://h:8080/a/b?x=1#frag") == "/a/b?x=1")
        #expect(DigestAuth.requestURI(of: "http://h") == "/")
        #expect(DigestAuth.requestURI(of: "https://u:p@h?x=1") == "/?x=1")
        #expect(DigestAuth.nonceCountText(1) == "00000001" && DigestAuth.nonceCountText(0x1ab) == "000001ab")
        #expect(DigestAuth.makeCnonce() != DigestAuth.makeCnonce())
    }
}
