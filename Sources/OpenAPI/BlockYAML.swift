import Foundation
import Targets

/// A fast reader for the YAML most OpenAPI documents are written in: block mappings and
/// sequences, single-line plain and quoted scalars, single-line flow collections, `|` and `>`
/// block scalars, comments. Anything else (anchors, aliases, tags, multi-line plain or quoted
/// scalars, complex keys, several documents) makes it give up and return nil, and the document
/// is read by Yams instead. Yams builds a node tree first and took about 225 ms of CPU for a
/// 2 MB document; reading straight into a JSON tree is several times faster (bench/run, the
/// `use openapi` row). The tests check that both readers agree.
struct BlockYAML {
    private struct Line {
        var indent: Int
        /// The text after the indentation, comments not yet removed.
        var text: Substring
    }

    private var lines: [Line] = []
    private var index = 0
    /// Every raw line, for block scalars (which keep blank lines and `#`).
    private var rawLines: [Substring] = []
    /// For each entry of `lines`, its position in `rawLines`.
    private var rawIndex: [Int] = []

    struct GiveUp: Error {}

    /// The tree, or nil when the text uses YAML this reader leaves to Yams.
    static func parse(_ text: String) -> JSONValue? {
        var reader = BlockYAML()
        return try? reader.document(text)
    }

    private mutating func document(_ text: String) throws(GiveUp) -> JSONValue {
        // "\r\n" is one Character to Swift: line ends are made "\n" first.
        let text = text.contains("\r") ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
        rawLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (position, raw) in rawLines.enumerated() {
            var indent = 0
            for char in raw.utf8 {
                if char == UInt8(ascii: " ") { indent += 1 } else { break }
            }
            let content = raw.dropFirst(indent)
            if content.isEmpty || content.hasPrefix("#") { continue }
            if content.hasPrefix("\t") { throw GiveUp() }
            if indent == 0, content.hasPrefix("%") || content.hasPrefix("...") { throw GiveUp() }
            if indent == 0, content.hasPrefix("---") {
                guard lines.isEmpty, content.count == 3 || content.dropFirst(3).first == " " else { throw GiveUp() }
                guard Self.isBlankOrComment(content.dropFirst(3)) else { throw GiveUp() }
                continue
            }
            lines.append(Line(indent: indent, text: content))
            rawIndex.append(position)
        }
        guard !lines.isEmpty else { throw GiveUp() }
        let value = try block(indent: lines[0].indent)
        guard index == lines.count else { throw GiveUp() }
        return value
    }

    private static func isBlankOrComment(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0 == " " }
        return trimmed.isEmpty || trimmed.hasPrefix("#")
    }

    private static func isSequenceEntry(_ text: Substring) -> Bool {
        text == "-" || text.hasPrefix("- ")
    }

    private mutating func block(indent: Int) throws(GiveUp) -> JSONValue {
        guard index < lines.count, lines[index].indent == indent else { throw GiveUp() }
        return Self.isSequenceEntry(lines[index].text) ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    private mutating func sequence(indent: Int) throws(GiveUp) -> JSONValue {
        var elements: [JSONValue] = []
        while index < lines.count, lines[index].indent == indent, Self.isSequenceEntry(lines[index].text) {
            let text = lines[index].text
            let rest = text.dropFirst(1).drop { $0 == " " }
            if Self.isBlankOrComment(rest) {
                index += 1
                guard index < lines.count, lines[index].indent > indent else { elements.append(.null); continue }
                elements.append(try block(indent: lines[index].indent))
                continue
            }
            // `- key: value` or `- - x`: the rest is a block at the column where it starts.
            let column = indent + (text.count - rest.count)
            let isMapping = try Self.mappingKey(rest) != nil
            if Self.isSequenceEntry(rest) || isMapping {
                lines[index] = Line(indent: column, text: rest)
                elements.append(try block(indent: column))
                continue
            }
            elements.append(try inlineValue(rest, keyIndent: indent))
        }
        return .array(elements)
    }

    private mutating func mapping(indent: Int) throws(GiveUp) -> JSONValue {
        var members: [JSONMember] = []
        while index < lines.count, lines[index].indent == indent, !Self.isSequenceEntry(lines[index].text) {
            guard let (key, rest) = try Self.mappingKey(lines[index].text) else { throw GiveUp() }
            let value = rest.drop { $0 == " " }
            if Self.isBlankOrComment(value) {
                index += 1
                if index < lines.count, lines[index].indent > indent {
                    members.append(JSONMember(key: key, value: try block(indent: lines[index].indent)))
                } else if index < lines.count, lines[index].indent == indent, Self.isSequenceEntry(lines[index].text) {
                    members.append(JSONMember(key: key, value: try sequence(indent: indent)))
                } else {
                    members.append(JSONMember(key: key, value: .null))
                }
                continue
            }
            members.append(JSONMember(key: key, value: try inlineValue(value, keyIndent: indent)))
        }
        return .object(members)
    }

    /// A value on the line of its key or dash: a block scalar, a flow collection or a scalar.
    /// The next line must not continue it (a multi-line scalar is left to Yams).
    private mutating func inlineValue(_ text: Substring, keyIndent: Int) throws(GiveUp) -> JSONValue {
        if let first = text.first, first == "|" || first == ">" { return try blockScalar(text, keyIndent: keyIndent) }
        var cursor = FlowCursor(text: text)
        let value = try cursor.value(inFlow: false)
        guard cursor.atEndOrComment() else { throw GiveUp() }
        index += 1
        if index < lines.count, lines[index].indent > keyIndent { throw GiveUp() }
        return value
    }

    /// `|` or `>`, with `-` or `+`: the more-indented lines that follow.
    private mutating func blockScalar(_ header: Substring, keyIndent: Int) throws(GiveUp) -> JSONValue {
        let folded = header.first == ">"
        var indicator = header.dropFirst()
        var chomp: Character = " "
        if let first = indicator.first, first == "-" || first == "+" {
            chomp = first
            indicator = indicator.dropFirst()
        }
        guard Self.isBlankOrComment(indicator) else { throw GiveUp() }
        let startRaw = rawIndex[index] + 1
        index += 1
        // The scalar's lines are the more-indented ones that follow (taken raw: a `#` there is text).
        while index < lines.count, lines[index].indent > keyIndent { index += 1 }
        let endRaw = index < lines.count ? rawIndex[index] : rawLines.count
        var body = Array(rawLines[startRaw..<endRaw])
        // Trailing blank lines belong to the chomping, not the content.
        var trailingBlank = 0
        while let last = body.last, last.allSatisfy({ $0 == " " }) {
            body.removeLast()
            trailingBlank += 1
        }
        guard let firstLine = body.first else { return .string("") }
        let indent = firstLine.prefix { $0 == " " }.count
        guard indent > keyIndent else { throw GiveUp() }
        var contentLines: [Substring] = []
        for line in body {
            let spaces = line.prefix { $0 == " " }.count
            if spaces >= indent {
                contentLines.append(line.dropFirst(indent))
            } else if line.allSatisfy({ $0 == " " }) {
                contentLines.append("")
            } else {
                throw GiveUp()
            }
        }
        var text: String
        if folded {
            // Lines fold into one with a blank between; a blank line is a line break; more-indented lines are left to Yams.
            guard !contentLines.contains(where: { $0.first == " " || $0.first == "\t" }) else { throw GiveUp() }
            text = ""
            var previousBlank = true
            for line in contentLines {
                if line.isEmpty {
                    text += "\n"
                    previousBlank = true
                } else {
                    if !previousBlank { text += " " }
                    text += line
                    previousBlank = false
                }
            }
        } else {
            text = contentLines.joined(separator: "\n")
        }
        switch chomp {
        case "-": break
        case "+": text += String(repeating: "\n", count: trailingBlank + 1)
        default: text += "\n"
        }
        return .string(text)
    }

    /// `key: rest` (or `key:` at the end): the key and what follows the colon; nil when the line
    /// is not a mapping entry.
    private static func mappingKey(_ text: Substring) throws(GiveUp) -> (String, Substring)? {
        guard let first = text.first else { return nil }
        if first == "\"" || first == "'" {
            var cursor = FlowCursor(text: text)
            guard case .string(let key) = try cursor.quoted() else { throw GiveUp() }
            let rest = cursor.rest
            guard rest.first == ":" else { return nil }
            let after = rest.dropFirst()
            guard after.isEmpty || after.first == " " else { return nil }
            return (key, after)
        }
        if first == "[" || first == "{" { return nil }
        if "&*!|>%@`?".contains(first) { throw GiveUp() }
        var position = text.startIndex
        while position < text.endIndex {
            let char = text[position]
            if char == ":" {
                let next = text.index(after: position)
                if next == text.endIndex || text[next] == " " {
                    let key = text[..<position]
                    guard !key.isEmpty, key.last != " " else { throw GiveUp() }
                    return (String(key), text[next...])
                }
            } else if char == "#", position > text.startIndex, text[text.index(before: position)] == " " {
                return nil
            }
            position = text.index(after: position)
        }
        return nil
    }
}
