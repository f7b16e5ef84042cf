/// The last Cookie header a ``CookieStore`` made, and the request it was made for. Calls to one
/// API ask for the same header again and again: while the store is unchanged it is handed out as
/// it is, and when a server sends one of its cookies anew with another value (a session renewed
/// with every answer), the new `name=value` replaces the old in place. Building the header afresh
/// cost about 8,800 instructions for 21 cookies (callgrind), most of it per cookie.
struct CookieHeaderMemo {
    /// Where one cookie's `name=value` lies in ``bytes``.
    private struct Part {
        var order: UInt64
        var start: Int
        var end: Int
    }

    let request: CookieRequestURL
    private var bytes: [UInt8]
    private var parts: [Part]
    /// ``bytes`` as a String; nil after a replacement until it is next asked for.
    private var text: String?

    /// A memo being built for `request`, with room for `capacity` bytes.
    init(request: CookieRequestURL, capacity: Int) {
        self.request = request
        bytes = []
        bytes.reserveCapacity(capacity)
        parts = []
    }

    /// Appends a cookie's `name=value` (after `; ` when it is not the first).
    mutating func append(_ pair: String, order: UInt64) {
        if !bytes.isEmpty {
            bytes.append(UInt8(ascii: ";"))
            bytes.append(UInt8(ascii: " "))
        }
        let start = bytes.count
        bytes.appendUTF8(of: pair)
        parts.append(Part(order: order, start: start, end: bytes.count))
    }

    /// How long the header is, in bytes.
    var count: Int { bytes.count }

    /// The header, or nil when no cookie is sent.
    mutating func header() -> String? {
        guard !bytes.isEmpty else { return nil }
        if let text { return text }
        let made = String(decoding: bytes, as: UTF8.self)
        text = made
        return made
    }

    /// Puts `pair` where the cookie numbered `order` is; nothing when the header does not send it.
    mutating func replace(order: UInt64, with pair: String) {
        guard let index = parts.firstIndex(where: { $0.order == order }) else { return }
        let old = parts[index]
        var pair = pair
        let shift = pair.withUTF8 { new in
            bytes.replaceSubrange(old.start..<old.end, with: new)
            return new.count - (old.end - old.start)
        }
        parts[index].end += shift
        if shift != 0 {
            for later in parts.indices where later > index {
                parts[later].start += shift
                parts[later].end += shift
            }
        }
        text = nil
    }
}
