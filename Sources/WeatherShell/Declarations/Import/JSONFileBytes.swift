import Foundation

/// The bytes of a JSON file another tool wrote, as UTF-8: one in UTF-16 with its byte order mark
/// (as Windows PowerShell writes a Postman environment, which newman reads) is transcoded; any
/// other is as it is, so that an error names the byte the file holds.
enum JSONFileBytes {
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        let encoding: String.Encoding
        if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
        } else {
            return bytes
        }
        guard let text = String(data: Data(bytes.dropFirst(2)), encoding: encoding) else { return bytes }
        return Array(text.utf8)
    }
}
