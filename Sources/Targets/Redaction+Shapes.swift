import Foundation

extension Redaction {
    /// Whether `body` may hold a credential known by its shape rather than its name
    /// (``maskedCredentialShapes(_:)``): a JWT's `eyJ`, or a URL with user info (`://` and `@`).
    static func mayHoldCredentialShape(_ body: Data) -> Bool {
        body.range(of: Data("eyJ".utf8)) != nil || (body.range(of: Data("://".utf8)) != nil && body.contains(UInt8(ascii: "@")))
    }

    /// `text` with the credentials a server issues in values of any name masked by their shape,
    /// as secret scanners find them: a JWT (`eyJ...`, three base64url parts) is `***`, and so is
    /// the password of a URL's user info (`postgres://u:***@h/db`, `https://u:***@h/x`).
    public static func maskedCredentialShapes(_ text: String) -> String {
        guard text.contains("eyJ") || text.contains("://") else { return text }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var result = String.UnicodeScalarView()
        func isBase64URL(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
        }
        while index < scalars.count {
            // A JWT: eyJ + base64url, ".", base64url, ".", base64url (an empty signature for alg none).
            if scalars[index] == "e", index + 3 <= scalars.count, String(String.UnicodeScalarView(scalars[index..<index + 3])) == "eyJ",
               index == 0 || !isBase64URL(scalars[index - 1]) {
                var end = index
                var dots = 0
                while end < scalars.count, isBase64URL(scalars[end]) || (scalars[end] == "." && dots < 2) {
                    if scalars[end] == "." { dots += 1 }
                    end += 1
                }
                if dots == 2 {
                    result.append(contentsOf: placeholder.unicodeScalars)
                    index = end
                    continue
                }
            }
            // A URL's user info: after `://`, up to the authority's end; the part after its first `:` before `@`.
            if scalars[index] == ":", index + 2 < scalars.count, scalars[index + 1] == "/", scalars[index + 2] == "/" {
                let start = index + 3
                var end = start
                while end < scalars.count, !"/?#\"' \t\r\n<>".unicodeScalars.contains(scalars[end]) { end += 1 }
                if let at = scalars[start..<end].lastIndex(of: "@"), let colon = scalars[start..<at].firstIndex(of: ":"), colon + 1 < at {
                    result.append(contentsOf: scalars[index...colon])
                    result.append(contentsOf: placeholder.unicodeScalars)
                    index = at
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }
}
