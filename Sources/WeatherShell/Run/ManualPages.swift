import Foundation

/// The manual's pages (docs/*.md), which `help TOPIC` prints. They are read where wsh finds them,
/// never copied into the code, so that a page and its help are one text: an installed wsh finds
/// them in PREFIX/share/doc/wsh (scripts/stage puts them there), a wsh built in the repository
/// finds the repository's docs/.
enum ManualPages {
    /// The folder of pages, if wsh can find one.
    static let folder: URL? = {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [directory.appendingPathComponent("../share/doc/wsh")]
        var above = directory
        // .build/<triple>/<configuration>/wsh is three folders below the repository.
        for _ in 0..<4 {
            above = above.deletingLastPathComponent()
            candidates.append(above.appendingPathComponent("docs"))
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("language.md").path) }?
            .standardizedFileURL
    }()

    /// The pages' names without `.md`, sorted; none when no folder was found.
    static var topics: [String] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
    }

    /// The text of the page `topic` (`name` or `name.md`), if there is one.
    static func page(_ topic: String) -> String? {
        let name = topic.hasSuffix(".md") ? String(topic.dropLast(3)) : topic
        guard let folder, topics.contains(name) else { return nil }
        return try? String(contentsOf: folder.appendingPathComponent(name + ".md"), encoding: .utf8)
    }
}
