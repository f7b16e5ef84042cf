import Foundation
import Targets

/// The response body last recorded and what masking it gave. An endpoint polled again often answers
/// with the same bytes; scanning them for what could be secret cost about 2,500 instructions for a
/// 500-byte answer (callgrind), comparing them with the last one a few dozen.
///
/// The body, its content type and the secrets are compared byte for byte, as masking matches them;
/// only a body up to `limit` bytes is kept, so the memo never holds a large answer alive.
final class BodyMemo {
    private var last: (body: Data, contentType: String?, secrets: [String], kept: Data, size: Int)?

    /// `body` masked for the history as ``Redaction/maskedForRecording(_:contentType:keeping:)`` masks it.
    func masked(_ body: Data, contentType: String?, _ redaction: Redaction, keeping limit: Int) -> (kept: Data, size: Int) {
        let secrets = redaction.secretValues
        if let last, last.body.count == body.count, last.body == body, last.secrets.hasSameBytes(as: secrets),
           Self.same(last.contentType, contentType) {
            return (last.kept, last.size)
        }
        let (kept, size) = redaction.maskedForRecording(body, contentType: contentType, keeping: limit)
        last = body.count <= limit ? (body, contentType, secrets, kept, size) : nil
        return (kept, size)
    }

    private static func same(_ first: String?, _ second: String?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case let (first?, second?): first.hasSameBytes(as: second)
        default: false
        }
    }
}
