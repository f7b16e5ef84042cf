import Foundation

extension Redaction {
    /// The secret values a request sends under sensitive names, as literals: a URL's password, the
    /// values of sensitive query keys, form fields and JSON members (``isSensitiveKey(_:)``), and
    /// of sensitive headers but Cookie (for `Authorization`, its credential; for Basic, the
    /// password too). A
    /// server may echo them back in a body that later shows in an error or a report; masking them
    /// by value from then on keeps them out of those as the names keep them out of logs.
    public func sentSecretValues(of request: Request) -> [String] {
        sentSecrets(of: request).map(\.value)
    }

    /// ``sentSecretValues(of:)`` with the name each is sent under: the query key, form field, JSON
    /// member or header, `password` for a URL's or a Basic credential's, `token` for another
    /// scheme's (`Bearer`).
    public func sentSecrets(of request: Request) -> [(name: String, value: String)] {
        var secrets: [(name: String, value: String)] = []
        let address = request.url.split(once: UInt8(ascii: "#")).0
        let (beforeQuery, query) = address.split(once: UInt8(ascii: "?"))
        if let password = Self.userInfoPassword(beforeQuery) { secrets.append(("password", password)) }
        if let query { secrets += sensitivePairs(query) }
        // Not the Cookie header: the jar's state, new with each answer that sets one, which names mask where it is shown.
        for header in request.headers where isSensitiveName(header.name) && header.name.lowercased() != "cookie" {
            let credentials = Self.credentials(inAuthorization: header)
            secrets += credentials.isEmpty ? [(header.name, header.value)] : credentials
        }
        if let body = request.body, !body.isEmpty {
            let type = request.headers.last { $0.name.lowercased() == "content-type" }?.value ?? ""
            if Self.isForm(type) {
                secrets += sensitivePairs(String(decoding: body, as: UTF8.self))
            } else if !Self.namesNothingSensitive(body), let json = try? JSONValue.parse(body) {
                secrets += sensitiveMembers(json)
            }
        }
        return secrets.filter { !$0.value.isEmpty && $0.value != Self.placeholder }
    }

    /// `a=1&token=x` gives `token`: `x`, percent-decoded, and as written when that differs.
    private func sensitivePairs(_ pairs: String) -> [(name: String, value: String)] {
        pairs.split(separator: "&").flatMap { pair -> [(name: String, value: String)] in
            let (key, value) = String(pair).split(once: UInt8(ascii: "="))
            let name = PercentEncoding.decode(key[...])
            guard let value, isSensitiveKey(name) else { return [] }
            let decoded = PercentEncoding.decode(value[...])
            return decoded == value ? [(name, value)] : [(name, decoded), (name, value)]
        }
    }

    private func sensitiveMembers(_ value: JSONValue) -> [(name: String, value: String)] {
        switch value {
        case .object(let members):
            members.flatMap { member in
                isSensitiveKey(member.key) ? Self.leafTexts(member.value).map { (member.key, $0) } : sensitiveMembers(member.value)
            }
        case .array(let elements): elements.flatMap(sensitiveMembers)
        default: []
        }
    }

    private static func leafTexts(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .number(let literal): [literal]
        case .array(let elements): elements.flatMap(leafTexts)
        case .object(let members): members.flatMap { leafTexts($0.value) }
        case .bool, .null: []
        }
    }

    /// `Bearer TOKEN` gives `token`: `TOKEN`; `Basic BASE64` the base64 and the password it holds;
    /// nothing for a scheme of parameters (Digest's `response="..."`, a signature: made anew for
    /// each request), and for a header that is no Authorization or has no scheme.
    private static func credentials(inAuthorization header: Header) -> [(name: String, value: String)] {
        let lowered = header.name.lowercased()
        guard lowered == "authorization" || lowered == "proxy-authorization" else { return [] }
        let words = header.value.split(separator: " ", maxSplits: 1)
        guard words.count == 2 else { return [] }
        let credential = String(words[1]).trimmingCharacters(in: .whitespaces)
        guard !credential.contains(","), !credential.contains("=\"") else { return [] }
        guard words[0].lowercased() == "basic", let data = Data(base64Encoded: credential),
              let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":") else { return [("token", credential)] }
        return [("password", credential), ("password", String(pair[pair.index(after: colon)...]))]
    }

    /// The password of `scheme://user:password@host`, percent-decoded.
    private static func userInfoPassword(_ address: String) -> String? {
        guard let schemeEnd = address.firstRange(of: "://") else { return nil }
        let authority = address[schemeEnd.upperBound...].prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return PercentEncoding.decode(authority[authority.index(after: colon)..<at], plusIsSpace: false)
    }
}
