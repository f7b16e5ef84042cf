import Foundation

extension Redaction {
    /// This redaction plus, as secret values, whatever `request` sends under a sensitive name: the
    /// values of sensitive headers (and the credential after `Bearer ` or `Basic `), of sensitive query
    /// keys, and of sensitive JSON or form fields. A response that echoes them back is then masked too.
    public func including(secretsOf request: Request) -> Redaction {
        if request.headers.isEmpty, request.body == nil, !request.url.containsByte(UInt8(ascii: "?")) { return self }
        var found: [String] = []
        for header in request.headers
        where isSensitiveName(header.name) {
            // A Cookie is a list: the values of cookies named like secrets or sessions (`session_token`,
            // `sid`, `PHPSESSID`) are secrets, as in `cookies`; the others stay readable.
            if header.name.utf8.count == 6, header.name.hasASCIIPrefixIgnoringCase("cookie") {
                found += sensitiveCookieValues(header.value)
                continue
            }
            found.append(header.value)
            if let space = header.value.firstIndex(of: " ") {
                found.append(String(header.value[header.value.index(after: space)...]))
            }
        }
        // Everything after the first `?`, up to a `#`: a base URL with a fragment gets its query after it.
        let query = request.url.split(once: UInt8(ascii: "?")).1 ?? ""
        found += sensitivePairValues(query.split(once: UInt8(ascii: "#")).0)
        if let body = request.body {
            let type = request.header("Content-Type")?.lowercased() ?? ""
            if type.contains("x-www-form-urlencoded") {
                found += sensitivePairValues(String(decoding: body, as: UTF8.self))
            } else if let json = try? JSONValue.parse(body) {
                found += sensitiveMemberValues(json)
            }
        }
        let added = found.filter { $0.count >= SecretForms.minimumLength && $0 != Self.placeholder && !secretValues.contains($0) }
        return added.isEmpty ? self : Redaction(secrets: secrets.adding(added))
    }

    /// The values of the cookies in a `Cookie` line whose names are sensitive, split as bytes.
    private func sensitiveCookieValues(_ line: String) -> [String] {
        var line = line
        return line.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return [] }
            // memchr finds the separators.
            func offset(of byte: UInt8, from start: Int, to end: Int) -> Int? {
                memchr(base + start, Int32(byte), end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
            }
            var values: [String] = []
            var start = 0
            while start < bytes.count {
                let end = offset(of: UInt8(ascii: ";"), from: start, to: bytes.count) ?? bytes.count
                if let equals = offset(of: UInt8(ascii: "="), from: start, to: end) {
                    let name = bytes[start..<equals].trimmingSpacesAndTabs
                    let sensitive = Self.isSensitiveCookieName(ascii: UnsafeBufferPointer(rebasing: name))
                        ?? isSensitiveCookieName(String(decoding: name, as: UTF8.self))
                    if sensitive { values.append(bytes[(equals + 1)..<end].textTrimmingSpacesAndTabs) }
                }
                start = end + 1
            }
            return values
        }
    }

    private func sensitivePairValues(_ pairs: String) -> [String] {
        pairs.utf8.split(separator: UInt8(ascii: "&")).compactMap { pair in
            let (key, value) = String(Substring(pair)).split(once: UInt8(ascii: "="))
            guard let value, isSensitiveKey(PercentEncoding.decode(key[...])) else { return nil }
            return PercentEncoding.decode(value[...])
        }
    }

    private func sensitiveMemberValues(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            members.flatMap { member -> [String] in
                guard isSensitiveKey(member.key) else { return sensitiveMemberValues(member.value) }
                switch member.value {
                case .string(let text): return [text]
                case .number(let literal): return [literal]
                default: return []
                }
            }
        case .array(let elements):
            elements.flatMap(sensitiveMemberValues)
        case .null, .bool, .number, .string:
            []
        }
    }
}
