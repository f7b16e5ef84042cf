import Foundation

/// JSON pointers (RFC 6901): how warnings name a place in a document, and how `$ref`s point.
public enum JSONPointer {
    /// `key` as one pointer token: `~` as `~0`, `/` as `~1`. On bytes: Foundation's string
    /// search was a quarter of importing a large document.
    public static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count + 4)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A pointer token as the key it names: `~1` as `/`, `~0` as `~`.
    static func unescape(_ token: Substring) -> String {
        guard token.contains("~") else { return String(token) }
        return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    /// `pointer` with `key` appended.
    public static func appending(_ pointer: String, _ key: String) -> String {
        pointer + "/" + escape(key)
    }

    /// `base` with each key of `path` appended.
    public static func pointer(_ base: String, _ path: [String]) -> String {
        path.reduce(base) { appending($0, $1) }
    }

    /// The tokens of a pointer (`/a/b~1c` is `a`, `b/c`); nil when it does not start with `/` (the empty pointer has none).
    public static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.utf8.first == UInt8(ascii: "/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(unescape)
    }

    /// The value a `$ref`'s fragment names inside `root` (`#/a/b` is `/a/b`), or nil. A fragment is
    /// percent-decoded before it is read as a pointer (RFC 6901 section 6: `%7BpetId%7D` is `{petId}`).
    public static func resolve(fragment: String, in root: JSONValue) -> JSONValue? {
        if fragment.isEmpty { return root }
        guard fragment.utf8.first == UInt8(ascii: "/") else { return nil }
        // Each token alone, so that one stray `%` leaves the others' escapes decoded.
        let tokens = fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return resolve("/" + tokens.map { PercentDecoding.decode(String($0)) }.joined(separator: "/"), in: root)
    }

    /// The value `pointer` names inside `root`, or nil.
    public static func resolve(_ pointer: String, in root: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = root
        for token in tokens {
            switch current {
            case .object:
                guard let next = current[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

/// Percent-decoding of a `$ref`'s fragment (a URI fragment may encode `{`, `}` and blanks).
public enum PercentDecoding {
    /// `text` with its `%XX` escapes decoded; unchanged when they do not make UTF-8.
    public static func decode(_ text: String) -> String {
        guard text.contains("%") else { return text }
        return text.removingPercentEncoding ?? text
    }
}
