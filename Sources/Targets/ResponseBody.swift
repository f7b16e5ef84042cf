import Foundation
import Synchronization

/// A response's decoded body and its parse as JSON, made when the body is set and shared by every
/// copy of the ``Response``, so that the shell's queries, the validation message, the logger and the
/// stub all read one parse.
///
/// Nothing is parsed until someone asks: most calls never read their body as JSON. The first caller
/// parses under the lock, and a caller on another thread meanwhile waits for that parse rather than
/// making a second one; after it, every caller gets the same value or the same error.
final class ResponseBody: Sendable {
    /// The parse, once made, and how many parses were made (0 or 1, for tests).
    private struct Parse {
        var result: Result<JSONValue, JSONParseError>?
        var count = 0
    }

    /// The decoded bytes.
    let bytes: Data
    private let parse = Mutex(Parse())

    init(_ bytes: Data) {
        self.bytes = bytes
    }

    /// The bytes parsed as JSON, parsing them on the first call. JSON is UTF-8; bytes a
    /// Content-Type says are in another charset (`charset=iso-8859-1`) are read in that one.
    func json(contentType: String?) -> Result<JSONValue, JSONParseError> {
        parse.withLock { parse in
            if let result = parse.result { return result }
            let text = CharsetDecoding.utf8(bytes, contentType: contentType) ?? bytes
            let result = Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(text) }
            parse.result = result
            parse.count += 1
            return result
        }
    }

    /// How many times these bytes were parsed: 0 before anyone asked, 1 after.
    var parseCount: Int {
        parse.withLock { $0.count }
    }
}
