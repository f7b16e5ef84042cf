/// One challenge of a `WWW-Authenticate` field (RFC 9110 11.6.1): a scheme and its parameters.
/// A field may hold several challenges (`Basic realm="a", Digest realm="b", nonce="c"`), and an
/// answer several fields.
struct AuthChallenge: Equatable {
    /// The scheme as written (`Digest`); compare it without case.
    var scheme: String
    /// The parameters by lowercased name, quoted strings unescaped; the first of a repeated name wins.
    var parameters: [String: String]

    /// Every challenge in `fields`, in order. Garbage between challenges is skipped; nothing traps.
    static func challenges(in fields: [String]) -> [AuthChallenge] {
        fields.flatMap { field in
            var scanner = ChallengeScanner(Array(field.utf8))
            return scanner.challenges()
        }
    }
}

/// Reads challenges from the bytes of one field.
private struct ChallengeScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func challenges() -> [AuthChallenge] {
        var result: [AuthChallenge] = []
        while index < bytes.count {
            skip { $0 == UInt8(ascii: ",") || Self.isSpace($0) }
            guard index < bytes.count else { break }
            guard let scheme = token() else {
                index += 1
                continue
            }
            result.append(AuthChallenge(scheme: scheme, parameters: parameters()))
        }
        return result
    }

    /// The parameters after a scheme, up to the next challenge's scheme (a token not followed by `=`).
    private mutating func parameters() -> [String: String] {
        var parameters: [String: String] = [:]
        var first = true
        while index < bytes.count {
            skip { $0 == UInt8(ascii: ",") || Self.isSpace($0) }
            let start = index
            guard let name = token() else {
                if index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                continue
            }
            skip(Self.isSpace)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                // A token68 right after the scheme (`Negotiate abc`) belongs to it; anything else starts a challenge.
                if first {
                    first = false
                    continue
                }
                index = start
                return parameters
            }
            index += 1
            if first, index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                // A token68 ending in '=' (`Bearer abc==`).
                skip { $0 == UInt8(ascii: "=") }
                first = false
                continue
            }
            first = false
            skip(Self.isSpace)
            let value = quotedString() ?? token() ?? ""
            let key = name.lowercased()
            if parameters[key] == nil { parameters[key] = value }
        }
        return parameters
    }

    /// A token (RFC 9110 tchar run), or `nil` when none starts here. token68 characters (`/`, `+`) are taken too.
    private mutating func token() -> String? {
        let start = index
        skip(Self.isTokenByte)
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A quoted string with its backslash escapes undone, or `nil` when none starts here.
    /// An unterminated one runs to the end of the field.
    private mutating func quotedString() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\"), index < bytes.count {
                value.append(bytes[index])
                index += 1
            } else {
                value.append(byte)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func skip(_ predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~/".utf8.contains(byte)
        }
    }
}
