import Foundation
@testable import Targets
import Testing

/// The forms of a secret, computed in one place, and the one routine that masks them.
@Suite struct SecretFormsTests {
    static let secret = "p@ss w/rd&x=1+Ä"

    @Test func aSecretWithCharactersToEscapeHasEveryEncodedForm() {
        #expect(Set(SecretForms.of(Self.secret)) == [
            "p@ss w/rd&x=1+Ä",
            "p%40ss%20w%2Frd%26x%3D1%2B%C3%84", "p%40ss%20w%2frd%26x%3d1%2b%c3%84",
            "p%40ss+w%2Frd%26x%3D1%2B%C3%84", "p%40ss+w%2frd%26x%3d1%2b%c3%84",
            "p@ss%20w/rd&x=1+%C3%84", "p@ss%20w/rd&x=1+%c3%84",
            "p@ss%20w/rd%26x%3D1%2B%C3%84", "p@ss%20w/rd%26x%3d1%2b%c3%84",
            "p%40ss%20w/rd%26x%3D1%2B%C3%84", "p%40ss%20w/rd%26x%3d1%2b%c3%84",
            #"p@ss w\/rd&x=1+Ä"#, #"p@ss w/rd&x=1+\u00c4"#, #"p@ss w/rd&x=1+\u00C4"#,
            #"p@ss w\/rd&x=1+\u00c4"#, #"p@ss w\/rd&x=1+\u00C4"#,
            "p@ss w/rd&amp;x=1+Ä",
            // As an IRI writes it in a query (only `% # & + =`, spaces and controls escaped) and in a path (`? #`),
            // as it is and JSON-escaped.
            "p@ss%20w/rd%26x%3D1%2BÄ", "p@ss%20w/rd%26x%3d1%2bÄ",
            #"p@ss%20w\/rd%26x%3D1%2BÄ"#, #"p@ss%20w/rd%26x%3D1%2B\u00c4"#, #"p@ss%20w/rd%26x%3D1%2B\u00C4"#,
            #"p@ss%20w\/rd%26x%3D1%2B\u00c4"#, #"p@ss%20w\/rd%26x%3D1%2B\u00C4"#,
            "p@ss%20w/rd&x=1+Ä",
            #"p@ss%20w\/rd&x=1+Ä"#, #"p@ss%20w/rd&x=1+\u00c4"#, #"p@ss%20w/rd&x=1+\u00C4"#,
            #"p@ss%20w\/rd&x=1+\u00c4"#, #"p@ss%20w\/rd&x=1+\u00C4"#,
            // Its UTF-8 bytes read as ISO-8859-1 (`Ä` is C3 84), as a WSGI server echoes a header,
            // as it is and JSON-escaped.
            "p@ss w/rd&x=1+\u{C3}\u{84}", #"p@ss w/rd&x=1+Ã\u0084"#, #"p@ss w\/rd&x=1+Ã\u0084"#,
            #"p@ss w/rd&x=1+\u00c3\u0084"#, #"p@ss w/rd&x=1+\u00C3\u0084"#,
            #"p@ss w\/rd&x=1+\u00c3\u0084"#, #"p@ss w\/rd&x=1+\u00C3\u0084"#,
            // Base64, padded and not, and what the secret alone makes at each place in a longer text
            // (URL-safe is the same here: no `+` or `/`).
            "cEBzcyB3L3JkJng9MSvDhA==", "cEBzcyB3L3JkJng9MSvDhA", "cEBzcyB3L3JkJng9MSvDh", "BAc3Mgdy9yZCZ4PTErw4", "wQHNzIHcvcmQmeD0xK8OE",
        ])
        #expect(SecretForms.of(Self.secret).count == 42, "no form twice")
    }

    @Test func everyFormDecodesBackToTheSecret() throws {
        for form in SecretForms.of(Self.secret) {
            let unescaped = try #require(try JSONValue.parse(Data("\"\(form)\"".utf8)).string, "\(form)")
            // `+` is a space only in the form encoding, where the secret's own `+` is `%2B`.
            // Read as ISO-8859-1, each character is a byte of the secret's UTF-8.
            let latin1 = unescaped.unicodeScalars.allSatisfy { $0.value < 0x100 }
                ? String(decoding: unescaped.unicodeScalars.map { UInt8($0.value) }, as: UTF8.self) : nil
            let decodings = [unescaped, unescaped.removingPercentEncoding,
                             unescaped.replacingOccurrences(of: "+", with: "%20").removingPercentEncoding,
                             unescaped.replacingOccurrences(of: "&amp;", with: "&"), latin1]
            // Base64, standard or URL-safe: whole, or the part the secret alone makes in a longer text.
            let base64 = form.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            let coded = Array(Data(Self.secret.utf8).base64EncodedString().utf8)
            let inLonger = (0..<3).contains { offset in
                Data(Array(repeating: 0, count: offset) + Array(Self.secret.utf8)).base64EncodedString().contains(base64)
            }
            #expect(decodings.contains(Self.secret) || String(decoding: coded, as: UTF8.self).hasPrefix(base64.trimmingCharacters(in: ["="])) || inLonger,
                    "\(form)")
        }
    }

    @Test func theFormsAreTheOnesRequestsAndServersWrite() throws {
        let forms = SecretForms.of(Self.secret)
        #expect(forms.contains(PercentEncoding.encode(Self.secret)), "a path segment, query value or form field")
        #expect(forms.contains(PercentEncoding.encodeIllegalURLCharacters(Self.secret)), "a variable in a base or path")
        #expect(forms.contains(String(JSONValue.string(Self.secret).compactText.dropFirst().dropLast())), "a JSON body")
        #expect(forms.contains(try #require(Self.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics))))
    }

    /// A secret with brackets, put in a path by a variable, goes out with them escaped (after the
    /// host a URL may not hold them): that form was missing, and the secret showed in the history.
    @Test func aSecretWithBracketsInAPathIsMasked() {
        let url = "http://127.0.0.1:8080/v/" + "p=[x]y"
        let sent = PercentEncoding.encodeIllegalURLCharacters(url)
        #expect(sent == "http://127.0.0.1:8080/v/p=%5Bx%5Dy")
        #expect(SecretSet(["p=[x]y"]).mask(sent) == "http://127.0.0.1:8080/v/***")
    }

    /// httpbin echoes `?q=ab%2Bcd%2Fef%3D%3Dg%20h` as `ab%2Bcd/ef%3D%3Dg%20h`, `a%2Bb%3Ac` as `a%2Bb:c`.
    @Test func aQueryAsAServerReEncodesItIsAForm() {
        #expect(SecretForms.of("ab+cd/ef==g h").contains("ab%2Bcd/ef%3D%3Dg%20h"))
        #expect(SecretForms.of("a+b:c").contains("a%2Bb:c"))
        #expect(SecretForms.of("a&b/c").contains("a%26b/c"))
        #expect(SecretSet(["ab+cd/ef==g h"]).mask("\"url\": \"http://h/anything?q=ab%2Bcd/ef%3D%3Dg%20h\"") == "\"url\": \"http://h/anything?q=***\"")
    }

    /// A Unicode host name goes out, and into errors, as `xn--` and Punycode.
    @Test func aUnicodeHostNameAlsoHasItsASCIIForm() {
        #expect(SecretForms.of("secrét-host.example").contains("xn--secrt-host-e7a.example"))
        #expect(SecretForms.of("Bücher").contains("xn--bcher-kva"))
        #expect(SecretSet(["secrét-host"]).mask("could not connect to xn--secrt-host-e7a:80") == "could not connect to ***:80")
        #expect(!SecretForms.of("secret-host.example").contains { $0.hasPrefix("xn--") }, "an ASCII name is sent as it is")
        // Normalizing folds the Kelvin sign to K: no plain ASCII form, which would mask every `key`.
        #expect(!SecretForms.of("\u{212A}EY").contains("key") && !SecretForms.of("\u{3002}\u{3002}\u{3002}").contains("..."))
    }

    @Test func aUserAndPasswordAlsoHasItsBase64AsInABasicHeader() throws {
        let credential = "alice:" + Self.secret
        let base64 = Data(credential.utf8).base64EncodedString()
        let forms = SecretForms.of(credential)
        #expect(forms.contains(base64))
        #expect(base64.hasSuffix("=="))
        #expect(forms.contains(base64.trimmingCharacters(in: ["="])), "as some servers echo it, unpadded")
        #expect(try #require(Data(base64Encoded: base64)) == Data(credential.utf8))
    }

    /// A server that echoes a key base64-encoded (`"b64": "SzN5L3ZAbCt1ZT05"`), standard or URL-safe,
    /// padded or not, or encodes a longer text that holds it (`Bearer KEY`) shows it in no form
    /// (test-serve H2). A value under 6 bytes has no base64 form: 4 characters would be masked
    /// wherever they stand.
    @Test func aSecretsBase64IsMaskedWholeAndInsideALongerText() throws {
        let key = "K3y/v@l+ue=9"
        let set = SecretSet([key])
        let standard = Data(key.utf8).base64EncodedString()
        #expect(set.mask(#"{"b64": "\#(standard)"}"#) == #"{"b64": "***"}"#)
        for longer in ["Bearer " + key, "x" + key + "yz", "ab" + key, #"{"key":"\#(key)"}"#] {
            for encoded in [Data(longer.utf8).base64EncodedString(),
                            Data(longer.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                                .trimmingCharacters(in: ["="])] {
                let masked = set.mask("token=" + encoded)
                #expect(masked.contains("***"), "\(longer): \(encoded) → \(masked)")
                // What is left of the encoding around the mask decodes to no more than 2 bytes of the key.
                #expect(masked.count <= "token=".count + 3 + (encoded.count - 4 * key.utf8.count / 3) + 4, "\(masked)")
            }
        }
        #expect(!SecretForms.of("k3y12").contains(Data("k3y12".utf8).base64EncodedString()), "too short to mask as base64")
        #expect(SecretForms.of("k3y123").contains(Data("k3y123".utf8).base64EncodedString()))
    }

    @Test func valuesShorterThanThreeCharactersHaveNoForms() {
        #expect(SecretForms.of("ab").isEmpty)
        #expect(SecretForms.of("Ä ").isEmpty)
        #expect(SecretSet(["ab", "", "x"]).isEmpty)
        #expect(SecretForms.of("abc") == ["abc"])
    }

    @Test func theSetMasksEveryFormWhereverItStands() {
        let set = SecretSet([Self.secret])
        for form in SecretForms.of(Self.secret) {
            #expect(set.mask("a \(form) b\(form)") == "a *** b***", "\(form)")
        }
        #expect(set.mask("nothing here, not even p@ss") == "nothing here, not even p@ss")
    }

    @Test func overlappingSecretsAreMaskedAsOneSoNoPartShows() {
        let set = SecretSet(["xab", "abcdef"])
        #expect(set.mask("1 xabcdef 2") == "1 *** 2")
        #expect(set.mask("xabxab abcdefabcdef") == "*** ***")
    }

    @Test func aRedactionAndTheSetsItAddsUseTheSameForms() {
        let request = Request(method: .get, url: "https://h/", headers: [Header(name: "X-Api-Key", value: "k/ä 1")])
        let redaction = Redaction(secrets: [Self.secret]).including(secretsOf: request)
        #expect(redaction.mask("k%2F%C3%A4%201 and p%40ss+w%2Frd%26x%3D1%2B%C3%84") == "*** and ***")
        #expect(redaction.secretValues == [Self.secret, "k/ä 1"])
    }
}
