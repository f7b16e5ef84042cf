import Foundation
import Targets

/// JSON pointers (RFC 6901): how warnings name a place in a document, and how `$ref`s point.
public enum JSONPointer {
    /// `key` as one pointer token: `~` as `~0`, `/` as `~1`.
    public static func escape(_ key: String) -> String {
        guard key.contains("~") || key.contains("/") else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
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
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            let text = String(token)
            guard text.contains("~") else { return PercentDecoding.decode(text) }
            return PercentDecoding.decode(text.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~"))
        }
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
enum PercentDecoding {
    static func decode(_ text: String) -> String {
        guard text.contains("%") else { return text }
        return text.removingPercentEncoding ?? text
    }
}
