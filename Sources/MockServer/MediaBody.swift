import Targets

/// A JSON value written as the body of the media type an answer declares: JSON as JSON, XML as a
/// small well-formed document, CSV as rows, any other type (text/plain, octet-stream) as the
/// value's text: a string as it is, anything else as compact JSON.
enum MediaBody {
    /// The body of `value` as `mediaType`; `schema` (with `$ref`s into `root`) names XML's root element.
    static func text(_ value: JSONValue, mediaType: String, schema: JSONValue? = nil, root: JSONValue = .null) -> String {
        let essence = MediaType.essence(of: mediaType)
        if MediaType.isJSON(essence) { return value.compactText }
        if isXML(essence) { return xml(value, rootName: rootName(schema, root: root)) }
        if essence == "text/csv" { return csv(value) }
        return value.string ?? value.compactText
    }

    /// `application/xml`, `text/xml` and the `+xml` types.
    static func isXML(_ mediaType: String) -> Bool {
        let essence = MediaType.essence(of: mediaType)
        return essence == "application/xml" || essence == "text/xml" || essence.hasSuffix("+xml")
    }

    // MARK: - XML

    /// A document whose root element holds the value: an object's members as child elements, an
    /// array's items as `<item>` elements, a scalar as text. A string that is already XML (an
    /// example written as XML) is kept as it is.
    static func xml(_ value: JSONValue, rootName: String) -> String {
        if let text = value.string, text.drop(while: \.isWhitespace).hasPrefix("<") { return text }
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + element(rootName, value)
    }

    private static func element(_ name: String, _ value: JSONValue) -> String {
        let tag = xmlName(name)
        let inner: String = switch value {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let literal): literal
        case .string(let text): escaped(text)
        case .array(let items): items.map { element("item", $0) }.joined()
        case .object(let members): members.map { element($0.key, $0.value) }.joined()
        }
        return "<\(tag)>\(inner)</\(tag)>"
    }

    /// The schema's `xml.name`, else the name of the component its `$ref` points at, else `root`.
    private static func rootName(_ schema: JSONValue?, root: JSONValue) -> String {
        var current = schema
        for _ in 0..<16 {
            if let name = current?["xml"]?["name"]?.string, !name.isEmpty { return name }
            guard let ref = current?["$ref"]?.string, ref.hasPrefix("#/") else { break }
            let next = ref.dropFirst(2).split(separator: "/").reduce(Optional(root)) { value, key in
                value?[String(key).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")]
            }
            if next?["xml"]?["name"]?.string == nil, let last = ref.split(separator: "/").last { return String(last) }
            current = next
        }
        return "root"
    }

    /// `name` made an XML name: a letter or `_` first, then letters, digits, `-`, `_` and `.`.
    static func xmlName(_ name: String) -> String {
        var text = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        if let first = text.first, !(first.isLetter || first == "_") { text = "_" + text }
        if text.isEmpty { text = "_" }
        if text.lowercased().hasPrefix("xml") { text = "_" + text }
        return text
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            // XML 1.0 has no way to write other control characters: left out.
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    // MARK: - CSV

    /// RFC 4180 rows: an array of objects under a header row of their keys, an object as a header
    /// and one row, an array of scalars one per row, a string as it is.
    static func csv(_ value: JSONValue) -> String {
        switch value {
        case .string(let text):
            return text
        case .object:
            return csv(.array([value]))
        case .array(let rows):
            var keys: [String] = []
            for case .object(let members) in rows {
                for member in members where !keys.contains(member.key) { keys.append(member.key) }
            }
            if keys.isEmpty { return rows.map { field($0) + "\r\n" }.joined() }
            let lines = rows.map { row in keys.map { key in row[key].map(field) ?? "" }.joined(separator: ",") }
            return ([keys.map { field(.string($0)) }.joined(separator: ",")] + lines).map { $0 + "\r\n" }.joined()
        default:
            return value.compactText
        }
    }

    private static func field(_ value: JSONValue) -> String {
        let text = value.string ?? (value == .null ? "" : value.compactText)
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
