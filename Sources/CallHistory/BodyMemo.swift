import Foundation
import Targets

/// The response body last recorded and what masking it gave. An endpoint polled again often answers
/// with the same bytes; scanning them for what could be secret cost about 2,500 instructions for a
/// 500-byte answer (callgrind), comparing them with the last one a few dozen.
///
/// The body, its content type and the secrets are compared byte for byte, as masking matches them;
/// only a body up to `limit` bytes is kept, so the memo never holds a large answer alive.
final class BodyMemo {
    // Fields rather than one optional tuple: unwrapping the tuple copied every member, which cost
    // as much as the scan it saves.
    private var hasLast = false
    private var lastBody = Data()
    private var lastContentType: String?
    private var lastSecrets: [String] = []
    private var lastKept = Data()
    private var lastSize = 0

    /// `body` masked for the history as ``Redaction/maskedForRecording(_:contentType:keeping:)`` masks it.
    func masked(_ body: Data, contentType: String?, _ redaction: Redaction, keeping limit: Int) -> (kept: Data, size: Int) {
        let secrets = redaction.secretValues
        if hasLast, lastBody == body, lastSecrets.hasSameBytes(as: secrets),
           Self.same(lastContentType, contentType) {
            return (lastKept, lastSize)
        }
        let (kept, size) = redaction.maskedForRecording(body, contentType: contentType, keeping: limit)
        hasLast = body.count <= limit
        (lastBody, lastContentType, lastSecrets, lastKept, lastSize) = hasLast ? (body, contentType, secrets, kept, size) : (Data(), nil, [], Data(), 0)
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
