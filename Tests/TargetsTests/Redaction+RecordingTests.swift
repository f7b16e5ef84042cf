import Foundation
import Targets
import Testing

/// A recorded body holds no secret: JSON stays JSON with secret members and values as `***`,
/// other bodies are masked byte for byte, and a body with nothing to mask is kept as it came.
@Suite struct RedactionRecordingTests {
    private let secret = "s3cr3t-value-42"

    @Test func jsonMembersNamedLikeSecretsAndSecretValuesBecomeStars() throws {
        let body = Data(#"{"id":1,"token":"tok-abc","nested":{"api_key":{"a":1},"note":"key is s3cr3t-value-42"},"list":[424242424242]}"#.utf8)
        let masked = Redaction(secrets: [secret, "424242424242"]).maskedForRecording(body, contentType: "application/json; charset=utf-8")
        let json = try JSONValue.parse(masked)
        #expect(json == (try JSONValue.parse(#"{"id":1,"token":"***","nested":{"api_key":"***","note":"key is ***"},"list":["***"]}"#)))
        let text = String(decoding: masked, as: UTF8.self)
        #expect(!text.contains("tok-abc") && !text.contains(secret) && !text.contains("424242424242"))
        #expect(text.hasPrefix("{\n  \"id\": 1,"), "written again, indented: \(text)")
    }

    /// XML elements named like secrets (a SOAP `<wsse:Password>`, `<apiKey>`, in CDATA too) are
    /// `***` in a recording, a sample, a shown body, and by value once the answer is read; other
    /// elements and the bytes around them are kept (test-serve H1).
    @Test func xmlElementsNamedLikeSecretsBecomeStars() {
        let xml = "<?xml version=\"1.0\"?>\n<r><apiKey>XMLKEY55</apiKey><wsse:Password>WSSEPASS44</wsse:Password>"
            + "<password><![CDATA[Cd4t4<Pass]]></password><city>London</city><token/><access_token>\n</access_token></r>"
        let expected = "<?xml version=\"1.0\"?>\n<r><apiKey>***</apiKey><wsse:Password>***</wsse:Password>"
            + "<password>***</password><city>London</city><token/><access_token>\n</access_token></r>"
        let redaction = Redaction()
        #expect(String(decoding: redaction.maskedForRecording(Data(xml.utf8), contentType: "text/xml"), as: UTF8.self) == expected)
        #expect(String(decoding: redaction.maskedForSample(Data(xml.utf8), contentType: nil), as: UTF8.self) == expected)
        #expect(redaction.maskedBody(Data(xml.utf8), contentType: "application/soap+xml") == expected)
        let response = Response(status: 200, reason: "", headers: [Header(name: "Content-Type", value: "application/xml")],
                                body: Data(xml.utf8), request: Request(method: .get, url: "http://127.0.0.1:9/x"))
        #expect(Set(redaction.receivedSecrets(of: response).map(\.value)) == ["XMLKEY55", "WSSEPASS44", "Cd4t4<Pass"])
        #expect(redaction.including(secretsOf: response).mask("note: WSSEPASS44") == "note: ***")
    }

    /// A body a server shapes (`<a<a<a...>`, unclosed CDATA sections) is read in one pass: the
    /// element scan looked for each `<`'s `>` to the end, and a 40 KB answer held wsh 6 minutes
    /// (review-rmain8 H1). An ISO-8859-1 answer is masked by its bytes (M2).
    @Test(.timeLimit(.minutes(1))) func anXMLBodyIsReadInOnePassAndInAnyASCIIEncoding() {
        let redaction = Redaction()
        for hostile in ["<r><apikey>x</apikey>" + String(repeating: "<a", count: 500_000) + ">",
                        "<r><apikey>x</apikey>" + String(repeating: "<a><![CDATA[", count: 100_000)] {
            let masked = String(decoding: redaction.maskedForRecording(Data(hostile.utf8), contentType: "text/plain"), as: UTF8.self)
            #expect(masked.hasPrefix("<r><apikey>***</apikey><a"))
            #expect(redaction.maskedBody(Data(hostile.utf8), contentType: nil).hasPrefix("<r><apikey>***</apikey>"))
        }
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<r><city>Montr".utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Array("al</city><password>Latin1-Pass-77</password></r>".utf8))
        let masked = redaction.maskedForRecording(latin1, contentType: "text/xml; charset=iso-8859-1")
        #expect(masked.range(of: Data("Latin1-Pass-77".utf8)) == nil && masked.range(of: Data([0x4D, 0x6F, 0x6E, 0x74, 0x72, 0xE9])) != nil,
                "\(String(decoding: masked, as: UTF8.self))")
    }

    @Test func aJSONBodyWithNothingToMaskIsKeptByteForByte() {
        let body = Data("{ \"id\" : 1, \"name\": \"ann\", \"token\": null }".utf8)
        #expect(Redaction(secrets: [secret]).maskedForRecording(body, contentType: nil) == body)
    }

    /// A body whose bytes show no sensitive name is kept without parsing it; a name spelled so that
    /// only decoding shows it (an escape, other case, the Kelvin sign) still takes the long way.
    @Test func namesSpelledAnyWayAreFoundWithoutParsingPlainBodies() throws {
        let plain = Data(#"{"latitude":37.25,"units":{"temperature":"°C"},"name":"Suwon"}"#.utf8)
        #expect(Redaction(secrets: [secret]).maskedForRecording(plain, contentType: "application/json") == plain)
        for name in [#"\u0074oken"#, "TOKEN", "Api_Key", "\u{212A}ey", #"pass\u0077ord"#] {
            let body = Data(#"{"id":1,"\#(name)":"hunter22"}"#.utf8)
            let masked = String(decoding: Redaction().maskedForRecording(body, contentType: "application/json"), as: UTF8.self)
            #expect(!masked.contains("hunter22"), "\(name): \(masked)")
        }
        // A secret only an escape spells, and a secret that is a JSON number, keep the body JSON.
        let escaped = Data(#"{"note":"\u0073\u0033cr3t-value-42","n":424242424242}"#.utf8)
        let masked = Redaction(secrets: [secret, "424242424242"]).maskedForRecording(escaped, contentType: nil)
        #expect(try JSONValue.parse(masked) == (try JSONValue.parse(#"{"note":"***","n":"***"}"#)))
        #expect(!Redaction().isSensitiveKey("latitude") && Redaction().isSensitiveKey("X-Api-Key")
                && Redaction().isSensitiveKey("MY_SECRET") && Redaction().isSensitiveKey("\u{212A}EY"))
    }

    @Test func aJSONBodyServedAsBytesIsMaskedAsJSON() {
        let body = Data(#"{"password":"hunter22"}"#.utf8)
        let masked = String(decoding: Redaction().maskedForRecording(body, contentType: "application/octet-stream"), as: UTF8.self)
        #expect(!masked.contains("hunter22"))
        #expect(masked.contains(#""password": "***""#), "\(masked)")
    }

    /// A JSON body after a byte order mark is JSON (the parser skips the mark): its credential
    /// members are masked in the recording and wherever the call is shown.
    @Test func aJSONBodyAfterAByteOrderMarkIsMaskedAsJSON() {
        let body = Data([0xEF, 0xBB, 0xBF] + Array(" {\"password\":\"hunter22\"}".utf8))
        let masked = String(decoding: Redaction().maskedForRecording(body, contentType: "application/json"), as: UTF8.self)
        #expect(!masked.contains("hunter22"), "\(masked)")
        let request = Request(method: .post, url: "http://h/x", headers: [Header(name: "Content-Type", value: "text/plain")], body: body)
        #expect(Redaction().including(secretsOf: request).mask("echo hunter22") == "echo ***")
    }

    @Test func otherBodiesAreMaskedByteForByteInEveryForm() {
        var body: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0xFF, 0x00]
        body += Array("k=\(secret) k2=p%40ss%20word end".utf8)
        body += [0xFE, 0x01]
        let masked = Redaction(secrets: [secret, "p@ss word"]).maskedForRecording(Data(body), contentType: "image/png")
        var expected: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0xFF, 0x00]
        expected += Array("k=*** k2=*** end".utf8)
        expected += [0xFE, 0x01]
        #expect(Array(masked) == expected)
    }

    @Test func formBodiesHaveSensitiveFieldsMasked() {
        let body = Data("name=ann&client_secret=abc123&note=s3cr3t-value-42".utf8)
        let masked = String(decoding: Redaction(secrets: [secret]).maskedForRecording(body, contentType: "application/x-www-form-urlencoded"),
                            as: UTF8.self)
        #expect(masked == "name=ann&client_secret=***&note=***")
    }

    /// Past the kept megabyte, a body with escapes is read with them read: where the kept part
    /// names nothing and holds no secret it is kept as it came, and where an escape spells a
    /// credential's name or a secret, that is masked.
    @Test func aLargeBodysEscapesAreReadBeforeItsKeptPartIsJudged() throws {
        let rows = (0..<40_000).map { #"{"id":\#($0),"note":"caf\u00e9 \"q\" \\ done"}"# }.joined(separator: ",")
        let plain = Data(("[" + rows + "]").utf8)
        let redaction = Redaction(secrets: [secret])
        let kept = redaction.maskedForRecording(plain, contentType: "application/json", keeping: 1 << 20)
        #expect(kept.size == plain.count && kept.kept == plain.prefix(1 << 20))
        for spelled in [#"{"\u0070assword":"hunter22"},"#, #"{"note":"s3cr3t\u002dvalue-42"},"#] {
            let body = Data(("[" + spelled + rows + "]").utf8)
            let masked = String(decoding: redaction.maskedForRecording(body, contentType: "application/json", keeping: 1 << 20).kept, as: UTF8.self)
            #expect(!masked.contains("hunter22") && !masked.contains("s3cr3t"), "\(masked.prefix(120))")
            #expect(masked.contains("***"), "\(masked.prefix(120))")
        }
    }
}
