import Targets
import Testing

@Suite struct FilePathsTests {
    /// As `NSString.deletingLastPathComponent` reads a path, without its trap on a one-character name.
    @Test(arguments: [
        ("o", ""), ("ab", ""), ("a/", ""), ("o/", ""), ("./o", "."), ("x/o", "x"), ("a/b/", "a"), ("a//b", "a"),
        ("/o", "/"), ("/o/", "/"), ("/", "/"), ("//", "/"), ("", ""), ("/a/b/c.json", "/a/b"), ("서/울", "서"),
    ])
    func directoryOfAPath(path: String, directory: String) {
        #expect(FilePaths.directory(of: path) == directory, "\(path)")
    }
}
