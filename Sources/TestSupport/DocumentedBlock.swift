import Foundation

/// A fenced code block of README.md or a page of docs/, with the words after its opening fence
/// (```` ```wsh illustrative ```` has the language `wsh` and the words `["illustrative"]`).
/// docs/dev/testing.md says which blocks the tests run.
public struct DocumentedBlock: CustomStringConvertible, Sendable {
    /// The page, relative to the repository's root.
    public var page: String
    /// The line of the block's first line of code (one after its fence), counted from 1.
    public var line: Int
    public var language: String
    public var words: [String]
    public var lines: [String]

    public var description: String { "\(page):\(line)" }

    /// Lines the reader types at the prompt, without their `wsh> `; empty when the block is a script.
    public var promptInput: [String] {
        lines.filter { $0.hasPrefix("wsh> ") }.map { String($0.dropFirst(5)) }
    }

    /// The repository this package was built from.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every page of docs/ (not docs/dev/: it is for people who change wsh).
    public static var pages: [String] {
        let docs = repository.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// Every fenced block of every page.
    public static func all() throws -> [DocumentedBlock] {
        try pages.flatMap { page in
            try blocks(in: String(contentsOf: repository.appendingPathComponent(page), encoding: .utf8), page: page)
        }
    }

    /// The fenced blocks of one page's text, also those indented in a list item (their lines
    /// without the fence's indentation). An unclosed fence ends at the page's end.
    public static func blocks(in text: String, page: String) -> [DocumentedBlock] {
        var blocks: [DocumentedBlock] = []
        var open: DocumentedBlock?
        var indentation = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let fence = line.dropFirst(indent)
            if fence.hasPrefix("```") {
                if let finished = open {
                    blocks.append(finished)
                    open = nil
                } else {
                    let words = fence.dropFirst(3).split(separator: " ").map(String.init)
                    open = DocumentedBlock(page: page, line: index + 2, language: words.first ?? "",
                                           words: Array(words.dropFirst()), lines: [])
                    indentation = indent
                }
            } else {
                open?.lines.append(String(line.dropFirst(min(indentation, indent))))
            }
        }
        if let open { blocks.append(open) }
        return blocks
    }
}
