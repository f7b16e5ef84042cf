import Foundation

/// A `multipart/form-data` body (RFC 7578) as curl's `-F` builds it: a random boundary,
/// one part per parameter, files read when the call is bound.
struct MultipartForm {
    /// The boundary line between parts, without the leading `--`.
    let boundary: String
    private var data = Data()

    init(boundary: String = MultipartForm.randomBoundary()) {
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=...`.
    var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// A boundary like curl's: dashes, then 24 random letters and digits.
    static func randomBoundary() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        let random = (0..<24).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] }
        return "------------------------wsh" + String(random)
    }

    /// Adds a part for each value of the parameters in declaration order (a name given twice is two
    /// parts): text and JSON as they are, `.file` values as file parts with the file's name and the
    /// Content-Type given with `;type=`, else its extension's.
    mutating func append(
        _ parameters: [Parameter], binding: ParameterBinding, targetName: String
    ) throws(ProviderError) {
        for (name, value) in binding.values(parameters) {
            switch value {
            case .text(let text), .json(let text):
                appendPart(name: name, filename: nil, contentType: nil, content: Data(text.utf8))
            case .file(let written):
                let file = FileReference(written)
                let content = try Self.read(file.path, parameter: name, targetName: targetName)
                let filename = URL(fileURLWithPath: file.path).lastPathComponent
                appendPart(name: name, filename: filename, contentType: file.partContentType, content: content)
            }
        }
    }

    /// The body, closed by the final boundary.
    func finished() -> Data {
        data + Data("--\(boundary)--\r\n".utf8)
    }

    private mutating func appendPart(name: String, filename: String?, contentType: String?, content: Data) {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(name))\""
        if let filename { head += "; filename=\"\(Self.escaped(filename))\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        data += Data(head.utf8)
        data += content
        data += Data("\r\n".utf8)
    }

    /// Quotes and line breaks in a name percent-encoded, as browsers and curl do.
    private static func escaped(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func read(_ path: String, parameter: String, targetName: String) throws(ProviderError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
            throw ProviderError(
                .unreadableFile(parameter: parameter, path: path, reason: reason), step: .encoding,
                targetName: targetName)
        }
    }
}
