/// File-path text without `NSString.deletingLastPathComponent`, which traps (an illegal
/// instruction) in swift-corelibs-foundation on a name of one character: `> o`, `a/`.
public enum FilePaths {
    /// The directory part of `path`, as `deletingLastPathComponent` means it: empty for a bare
    /// name (`o`), `/` for a name at the root (`/o`), trailing slashes ignored (`a/b/` is `a`).
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var head = trimmed[..<slash]
        while head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }
}
