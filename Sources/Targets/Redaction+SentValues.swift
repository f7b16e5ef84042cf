import Foundation

extension Redaction {
    /// The secret values a request sends under sensitive names, as literals: a URL's password, the
    /// values of sensitive query keys, form fields and JSON members (``isSensitiveKey(_:)``), and
    /// of sensitive headers (for `Authorization: Basic`, the decoded password too). A server may
    /// echo them back in a body that later shows in an error or a report; masking them by value
    /// from then on keeps them out of those as the names keep them out of logs.
    public func sentSecretValues(of request: Request) -> [String] {
        var values: [String] = []
        let address = request.url.split(once: UInt8(ascii: "#")).0
        let (beforeQuery, query) = address.split(once: UInt8(ascii: "?"))
        if let password = Self.userInfoPassword(beforeQuery) { values.append(password) }
        if let query { values += sensitivePairValues(query) }
        for header in request.headers where isSensitiveName(header.name) {
            values.append(header.value)
            values += Self.credentials(inAuthorization: header)
        }
        if let body = request.body, !body.isEmpty {
            let type = request.headers.last { $0.name.lowercased() == "content-type" }?.value ?? ""
            if Self.isForm(type) {
                values += sensitivePairValues(String(decoding: body, as: UTF8.self))
            } else if !Self.namesNothingSensitive(body), let json = try? JSONValue.parse(body) {
                values += sensitiveMemberValues(json)
            }
        }
        return values.filter { !$0.isEmpty && $0 != Self.placeholder }
    }

    /// `a=1&token=x` gives `x`, percent-decoded, and as written when that differs.
    private func sensitivePairValues(_ pairs: String) -> [String] {
        pairs.split(separator: "&").flatMap { pair -> [String] in
            let (key, value) = String(pair).split(once: UInt8(ascii: "="))
            guard let value, isSensitiveKey(PercentEncoding.decode(key[...])) else { return [] }
            let decoded = PercentEncoding.decode(value[...])
            return decoded == value ? [value] : [decoded, value]
        }
    }

    private func sensitiveMemberValues(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            members.flatMap { member in
                isSensitiveKey(member.key) ? Self.leafTexts(member.value) : sensitiveMemberValues(member.value)
            }
        case .array(let elements): elements.flatMap(sensitiveMemberValues)
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

    /// `Bearer TOKEN` gives `TOKEN`; `Basic BASE64` its base64 and the password it holds.
    private static func credentials(inAuthorization header: Header) -> [String] {
        let lowered = header.name.lowercased()
        guard lowered == "authorization" || lowered == "proxy-authorization" else { return [] }
        let words = header.value.split(separator: " ", maxSplits: 1)
        guard words.count == 2 else { return [] }
        let credential = String(words[1]).trimmingCharacters(in: .whitespaces)
        guard words[0].lowercased() == "basic", let data = Data(base64Encoded: credential),
              let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":") else { return [credential] }
        return [credential, String(pair[pair.index(after: colon)...])]
    }

    /// The password of `scheme://user:password@host`, percent-decoded.
    private static func userInfoPassword(_ address: String) -> String? {
        guard let schemeEnd = address.firstRange(of: "://") else { return nil }
        let authority = address[schemeEnd.upperBound...].prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return PercentEncoding.decode(authority[authority.index(after: colon)..<at], plusIsSpace: false)
    }
}
