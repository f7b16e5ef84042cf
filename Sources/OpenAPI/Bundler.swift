import Foundation
import Targets

/// Brings the parts of other files that `$ref`s point to into the main document, under
/// `/x-wsh-bundled/N`, and rewrites those refs to point there; refs inside a bundled part (to its
/// own file or further files) are rewritten the same way. Afterwards every `$ref` is local
/// (`#/...`), which is all the importer and the schema checks need to follow. Each file is read
/// once; a part is bundled once however often it is named, so cycles between files end. The
/// "files" of a document read from a URL are URLs: its refs are resolved against that URL, and
/// `read` is given the absolute URL.
struct Bundler {
    static let key = "x-wsh-bundled"

    /// Reads a file's bytes; nil when it cannot be read.
    let read: (String) -> [UInt8]?
    private var trees: [String: JSONValue?] = [:]
    private var slots: [String: Int] = [:]
    private var bundled: [JSONValue] = []
    /// Parts given a slot but not yet rewritten: a worklist, so a long chain of refs between files
    /// is a loop, not a recursion.
    private var pending: [(slot: Int, part: JSONValue, file: String)] = []
    private(set) var warnings: [ImportWarning] = []

    init(read: @escaping (String) -> [UInt8]?) {
        self.read = read
    }

    /// `root`, read from `path` (a file's path or an `http(s)` URL; nil for a document from
    /// neither), with every ref to another file made local.
    mutating func bundle(_ root: JSONValue, path: String?) -> JSONValue {
        guard let path, Self.hasExternalRef(root) else { return root }
        trees[path] = root
        var result = rewrite(root, file: path, main: path, pointer: "", depth: 0)
        while let next = pending.popLast() {
            bundled[next.slot] = rewrite(next.part, file: next.file, main: path, pointer: "/\(Self.key)/\(next.slot)", depth: 0)
        }
        if !bundled.isEmpty, case .object(var members) = result {
            members.append(JSONMember(key: Self.key, value: .object(bundled.enumerated().map { JSONMember(key: String($0.offset), value: $0.element) })))
            result = .object(members)
        }
        return result
    }

    private static func hasExternalRef(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            return members.contains { member in
                if member.key == "$ref", case .string(let ref) = member.value, !ref.hasPrefix("#") { return true }
                return hasExternalRef(member.value)
            }
        case .array(let elements): return elements.contains(where: hasExternalRef)
        default: return false
        }
    }

    private mutating func rewrite(_ value: JSONValue, file: String, main: String, pointer: String, depth: Int) -> JSONValue {
        guard depth < DocumentText.maxDepth else { return value }
        switch value {
        case .object(var members):
            for index in members.indices {
                let member = members[index]
                if member.key == "$ref", case .string(let ref) = member.value {
                    members[index].value = .string(rewrittenRef(ref, file: file, main: main, pointer: pointer))
                } else {
                    members[index].value = rewrite(member.value, file: file, main: main, pointer: JSONPointer.appending(pointer, member.key), depth: depth + 1)
                }
            }
            return .object(members)
        case .array(var elements):
            for index in elements.indices {
                elements[index] = rewrite(elements[index], file: file, main: main, pointer: pointer + "/\(index)", depth: depth + 1)
            }
            return .array(elements)
        default:
            return value
        }
    }

    /// The local ref for `ref` written in `file`; the ref unchanged when it cannot be followed
    /// (the importer then warns that it is broken), after a warning saying why.
    private mutating func rewrittenRef(_ ref: String, file: String, main: String, pointer: String) -> String {
        let hash = ref.firstIndex(of: "#")
        let filePart = String(ref[..<(hash ?? ref.endIndex)])
        let fragment = hash.map { String(ref[ref.index(after: $0)...]) } ?? ""
        if filePart.contains("://"), !Self.isURL(main) {
            warnings.append(ImportWarning(pointer: pointer + "/$ref", message: "$ref '\(ref)' is on the network: a local document's refs are read from local files only"))
            return ref
        }
        let target = filePart.isEmpty ? file : Self.resolve(filePart, from: file)
        if target == main { return "#" + fragment }
        let key = target + "#" + fragment
        if let slot = slots[key] { return "#/\(Self.key)/\(slot)" }
        if trees[target] == nil {
            trees[target] = read(target).flatMap { try? DocumentText.parse($0) }
            if trees[target] == nil {
                warnings.append(ImportWarning(pointer: pointer + "/$ref", message: "$ref '\(ref)': cannot read \(target)"))
            }
        }
        guard case let tree?? = trees[target] else { return ref }
        guard let part = JSONPointer.resolve(fragment: fragment, in: tree) else {
            warnings.append(ImportWarning(pointer: pointer + "/$ref", message: "$ref '\(ref)': \(fragment.isEmpty ? "/" : fragment) is not in \(target)"))
            return ref
        }
        let slot = bundled.count
        slots[key] = slot
        bundled.append(.null)
        pending.append((slot, part, target))
        return "#/\(Self.key)/\(slot)"
    }

    /// Whether `path` is an `http` or `https` URL rather than a file's path.
    static func isURL(_ path: String) -> Bool {
        path.hasPrefix("http://") || path.hasPrefix("https://")
    }

    /// `relative` as written in `file`, as a path; as an absolute URL when `file` is a URL.
    private static func resolve(_ relative: String, from file: String) -> String {
        if isURL(file) {
            return URL(string: relative, relativeTo: URL(string: file))?.absoluteURL.standardized.absoluteString ?? relative
        }
        let decoded = PercentDecoding.decode(relative)
        let full = decoded.hasPrefix("/") ? decoded : (FilePaths.directory(of: file) as NSString).appendingPathComponent(decoded)
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }
}
