import Foundation

/// Looks for a secret in text in every form a request or a server can give it, and in the text
/// decoded every way (percent, `+`, JSON escapes, base64), so that a form nobody listed is caught too.
/// Written apart from wsh's own list of forms, so that a form wsh forgets fails here.
struct SecretLeakCheck {
    let secret: String
    /// The user of the Basic credential `USER:SECRET`, whose base64 goes in the header.
    let basicUser: String

    /// The forms written out: as is, percent-encoded (upper and lower case hex, `+` for a space,
    /// only what a URL cannot hold), JSON-escaped (`\/`, `\u00c4`), base64 of `USER:SECRET`.
    var forms: [String] {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let percent = secret.addingPercentEncoding(withAllowedCharacters: unreserved) ?? secret
        let inPath = secret.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? secret
        let plus = percent.replacingOccurrences(of: "%20", with: "+")
        let json = [secret.replacingOccurrences(of: "/", with: "\\/")]
            + secret.unicodeScalars.filter { !$0.isASCII }.flatMap { scalar in
                let hex = String(scalar.value, radix: 16)
                return ["\\u00" + hex, "\\u00" + hex.uppercased()].map { escape in
                    secret.replacingOccurrences(of: String(scalar), with: escape)
                }
            }
        let basic = Data("\(basicUser):\(secret)".utf8).base64EncodedString()
        return [secret, percent, Self.lowercasingHex(percent), plus, Self.lowercasingHex(plus), inPath,
                Self.lowercasingHex(inPath), basic, basic.trimmingCharacters(in: ["="])] + json
    }

    /// What in `text` gives the secret away: each form found, and each decoding that holds it.
    func leaks(in text: String) -> [String] {
        var found = forms.filter { text.contains($0) }
        let json = Self.jsonUnescaped(text)
        // A body echoed as a JSON string, in a report's JSON string: escaped up to three times.
        let twice = Self.jsonUnescaped(json)
        let views = [
            ("percent-decoded", Self.percentDecoded(text, plusIsSpace: false)),
            ("form-decoded", Self.percentDecoded(text, plusIsSpace: true)),
            ("JSON-unescaped", json),
            ("JSON-unescaped, percent-decoded", Self.percentDecoded(json, plusIsSpace: false)),
            ("JSON-unescaped twice", twice),
            ("JSON-unescaped three times", Self.jsonUnescaped(twice)),
        ]
        found += views.filter { $0.1.contains(secret) }.map(\.0)
        if Self.base64Decodings(text).contains(where: { $0.contains(secret) }) { found.append("base64-decoded") }
        return found
    }

    private static func lowercasingHex(_ text: String) -> String {
        var result = ""
        var hexLeft = 0
        for character in text {
            result += hexLeft > 0 ? character.lowercased() : String(character)
            hexLeft = character == "%" ? 2 : max(0, hexLeft - 1)
        }
        return result
    }

    /// `%XX` in either case as its byte; malformed escapes stay.
    private static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let byte = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                index += 3
            } else {
                bytes.append(plusIsSpace && utf8[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `\/`, `\"`, `\\` and `\uXXXX` undone.
    private static func jsonUnescaped(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "\\") {
            result += rest[..<slash]
            let after = rest[rest.index(after: slash)...]
            if after.hasPrefix("u"), after.count >= 5, let code = UInt32(after.dropFirst().prefix(4), radix: 16),
               let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
                rest = after.dropFirst(5)
            } else if let escaped = after.first {
                result.append(escaped)
                rest = after.dropFirst()
            } else {
                rest = after
            }
        }
        return result + rest
    }

    /// The decoding of every run of 8 or more base64 characters.
    private static func base64Decodings(_ text: String) -> [String] {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
        return text.split(whereSeparator: { !alphabet.contains($0) }).filter { $0.count >= 8 }.compactMap { run in
            let body = run.trimmingCharacters(in: ["="])
            let padded = body + String(repeating: "=", count: (4 - body.count % 4) % 4)
            return Data(base64Encoded: padded).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
