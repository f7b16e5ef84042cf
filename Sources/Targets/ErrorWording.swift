import Foundation

/// Library errors said in a user's terms: no type names (`HTTPClientError.`), no build paths, no
/// camelCase. A transport error the mapping in ``TransportFailure`` does not know goes through here.
enum ErrorWording {
    /// `invalidHeaderFieldNames(["a b"])` as `invalid header field names: "a b"`.
    static func words(_ error: any Error) -> String {
        var text = String(describing: error)
        // `HTTPClientError.invalidURL`, `NIOSSLError.handshakeFailed(...)`: drop the type.
        if let dot = text.firstIndex(of: "."), text[..<dot].allSatisfy({ $0.isLetter || $0.isNumber }),
           text[..<dot].first?.isUppercase == true {
            text = String(text[text.index(after: dot)...])
        }
        text = withoutPaths(text)
        guard let first = text.first, first.isLowercase else { return text }
        var name = ""
        var rest = Substring(text)
        while let character = rest.first, character.isLetter || character.isNumber {
            name.append(character)
            rest = rest.dropFirst()
        }
        // Already words (`invalid constant string`), not a case name.
        guard rest.isEmpty || rest.first == "(" else { return text }
        // Words split at each capital; a run of capitals is one word, kept as written (`invalidURL`: `invalid URL`).
        var words: [String] = []
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            let startsWord = character.isUppercase && index > 0
                && (characters[index - 1].isLowercase || (index + 1 < characters.count && characters[index + 1].isLowercase))
            if words.isEmpty || startsWord { words.append("") }
            words[words.count - 1].append(character)
        }
        let spaced = words.map { $0.count > 1 && $0.allSatisfy(\.isUppercase) ? $0 : $0.lowercased() }.joined(separator: " ")
        let detail = rest.trimmingCharacters(in: ["(", ")", " "]).replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
        return detail.isEmpty ? spaced : "\(spaced): \(detail)"
    }

    /// What went wrong with TLS, when `error` is from the TLS library; nil otherwise.
    static func tlsProblem(_ error: any Error) -> String? {
        let type = String(reflecting: Swift.type(of: error))
        guard type.contains("SSL") || type.contains("TLS") else { return nil }
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificateVerify") {
            return "its certificate is not trusted (self-signed, expired or from an unknown authority)"
        }
        if text.contains("failedToValidateHostname") || text.contains("hostname") {
            return "its certificate is not for this host name"
        }
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("wrong version") {
            return "the server did not answer TLS (is it plain http://?)"
        }
        if text.contains("uncleanShutdown") { return "the server closed the connection during the handshake" }
        let reasons = text.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count > 3 && $0.allSatisfy { $0.isUppercase || $0 == "_" } }
        if let reason = reasons.first { return "handshake failed: " + reason.lowercased().replacingOccurrences(of: "_", with: " ") }
        return "handshake failed"
    }

    /// The text without ` at /path/to/file.c:12` parts, which name where the library was built.
    static func withoutPaths(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: " at /") {
            result += rest[..<range.lowerBound]
            rest = rest[range.upperBound...]
            rest = rest.drop { !($0 == "," || $0 == "]" || $0 == ")" || $0 == " ") }
        }
        return result + rest
    }
}
