extension Array where Element == Header {
    /// The value of the first field named `name`, compared without regard to case.
    public func value(named name: String) -> String? {
        first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The values of every field named `name`, compared without regard to case, in order.
    func values(named name: String) -> [String] {
        filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Puts `header` where the first same-named field was (dropping any others of that name),
    /// or at the end when there was none.
    public mutating func replaceOrAppend(_ header: Header) {
        guard let index = firstIndex(where: { $0.name.caseInsensitiveEquals(header.name) }) else {
            append(header)
            return
        }
        self[index] = header
        let rest = self[(index + 1)...].filter { !$0.name.caseInsensitiveEquals(header.name) }
        replaceSubrange((index + 1)..., with: rest)
    }
}

extension String {
    /// Equality that ignores ASCII case, as HTTP field names are compared.
    /// Field names are ASCII and compared byte by byte, with no lowercased copy made.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var text = self
        var other = other
        let asciiEqual: Bool? = text.withUTF8 { bytes in
            other.withUTF8 { otherBytes in
                for index in bytes.indices {
                    let (byte, otherByte) = (bytes[index], otherBytes[index])
                    // Past a non-ASCII byte, lowercasing may change lengths: the long way decides.
                    if byte >= 0x80 || otherByte >= 0x80 { return nil }
                    if byte != otherByte, Redaction.asciiLowercased(byte) != Redaction.asciiLowercased(otherByte) { return false }
                }
                return true
            }
        }
        return asciiEqual ?? (lowercased() == other.lowercased())
    }
}
