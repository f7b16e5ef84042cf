import Foundation

/// The parts of a `multipart/form-data` body, read back from its bytes, so that a printed command
/// can give each as `-F`: a command line names the parts, not the bytes between boundaries.
struct MultipartParts {
    struct Part: Equatable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Data
    }

    /// The parts of `body`, or nil when it is not a multipart body with that boundary.
    static func parse(_ body: Data, contentType: String) -> [Part]? {
        guard let boundary = boundary(of: contentType) else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        let bytes = Array(body)
        var parts: [Part] = []
        guard var start = find(delimiter, in: bytes, from: 0) else { return nil }
        while true {
            var cursor = start + delimiter.count
            if bytes[cursor...].starts(with: Array("--".utf8)) { return parts }
            guard bytes[cursor...].starts(with: Array("\r\n".utf8)) else { return nil }
            cursor += 2
            guard let next = find(Array("\r\n".utf8) + delimiter, in: bytes, from: cursor),
                  let headEnd = find(Array("\r\n\r\n".utf8), in: bytes, from: cursor), headEnd <= next else { return nil }
            let head = String(decoding: bytes[cursor..<headEnd], as: UTF8.self)
            guard let part = part(head: head, content: Data(bytes[(headEnd + 4)..<next])) else { return nil }
            parts.append(part)
            start = next + 2
        }
    }

    private static func part(head: String, content: Data) -> Part? {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in head.components(separatedBy: "\r\n") {
            let (field, value) = line.split(once: UInt8(ascii: ":"))
            guard let value else { continue }
            switch field.lowercased() {
            case "content-disposition":
                name = quotedParameter("name", in: value)
                filename = quotedParameter("filename", in: value)
            case "content-type":
                contentType = value.trimmingCharacters(in: .whitespaces)
            default: break
            }
        }
        return name.map { Part(name: $0, filename: filename, contentType: contentType, content: content) }
    }

    /// `name="VALUE"` in a Content-Disposition, percent-escapes of quotes and line breaks undone.
    private static func quotedParameter(_ parameter: String, in value: String) -> String? {
        guard let range = value.range(of: "; \(parameter)=\"") else { return nil }
        let rest = value[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end].replacingOccurrences(of: "%22", with: "\"")
            .replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
    }

    private static func boundary(of contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
              let range = contentType.range(of: "boundary=") else { return nil }
        let value = contentType[range.upperBound...].prefix { $0 != ";" }
        let boundary = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return boundary.isEmpty ? nil : boundary
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
