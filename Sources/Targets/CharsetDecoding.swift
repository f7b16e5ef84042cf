import Foundation

/// Text in the charset its Content-Type names (`text/html; charset=shift_jis`), as UTF-8, with the
/// C library's iconv: latin1, windows-1252, gb2312, gbk, big5, shift_jis, euc-jp, euc-kr, koi8-r,
/// the UTF-16s and whatever else it knows. A byte that is not text in that charset becomes U+FFFD.
public enum CharsetDecoding {
    /// The `charset` parameter of a media type, lowercased and unquoted; nil when there is none.
    public static func charset(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpacesAndTabs.lowercased() == "charset" else { continue }
            let value = pair[1].trimmingSpacesAndTabs.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value.lowercased()
        }
        return nil
    }

    /// Whether text of this media type must be converted to be UTF-8: its `charset` is neither
    /// UTF-8 nor ASCII (no charset means UTF-8).
    public static func needsConversion(_ contentType: String?) -> Bool {
        guard let charset = charset(of: contentType) else { return false }
        return !["utf-8", "utf8", "us-ascii", "ascii"].contains(charset)
    }

    /// `body` as UTF-8 when `contentType` names a charset that is neither UTF-8 nor ASCII and that
    /// iconv knows; nil when the bytes need no conversion or none is possible (use them as they are).
    public static func utf8(_ body: Data, contentType: String?) -> Data? {
        guard !body.isEmpty, needsConversion(contentType), let charset = charset(of: contentType) else { return nil }
        guard let converter = iconv_open("UTF-8", iconvName(charset)), converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        return convert(body, with: converter, strictly: false).output
    }

    /// Why bytes are not text in a charset.
    public enum Failure: Error, Equatable {
        /// iconv knows no charset of that name.
        case unknownCharset
        /// The byte at this offset (from 0) starts no character of the charset, or one cut off at the end.
        case notText(at: Int)
    }

    /// `bytes` read as text in `charset` (a name as a Content-Type writes it: `gb2312`, `latin1`,
    /// `shift_jis`, `utf-16le`), every byte of them: one that is not text in it is a failure.
    public static func text(_ bytes: [UInt8], charset: String) -> Result<String, Failure> {
        // iconv reads an empty name as the locale's charset.
        guard !charset.isEmpty, let converter = iconv_open("UTF-8", iconvName(charset.lowercased())), converter != iconv_t(bitPattern: -1) else {
            return .failure(.unknownCharset)
        }
        defer { iconv_close(converter) }
        guard !bytes.isEmpty else { return .success("") }
        let (output, failedAt) = convert(Data(bytes), with: converter, strictly: true)
        if let failedAt { return .failure(.notText(at: failedAt)) }
        return .success(String(decoding: output, as: UTF8.self))
    }

    /// iconv's name for a charset: as written, except that iso-8859-1 (and ascii) in a Content-Type
    /// means windows-1252 to every browser (WHATWG Encoding), its superset in the printable range,
    /// and gb2312 means GBK, its superset.
    private static func iconvName(_ charset: String) -> String {
        if ["iso-8859-1", "latin1", "iso_8859-1", "l1", "ascii", "us-ascii"].contains(charset) { return "WINDOWS-1252" }
        if charset == "gb2312" { return "GBK" }
        return charset.uppercased()
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The bytes of `body` as UTF-8; one that is not text becomes U+FFFD, or `strictly`, stops the
    /// conversion there and gives its offset.
    private static func convert(_ body: Data, with converter: iconv_t, strictly: Bool) -> (output: Data, failedAt: Int?) {
        var input = [CChar](unsafeUninitializedCapacity: body.count) { buffer, count in
            count = body.copyBytes(to: UnsafeMutableRawBufferPointer(buffer))
        }
        var output = Data()
        var failedAt: Int?
        var chunk = [CChar](repeating: 0, count: max(64, min(body.count * 4, 1 << 20)))
        input.withUnsafeMutableBufferPointer { inBuffer in
            var inPointer = inBuffer.baseAddress
            var inLeft = inBuffer.count
            while inLeft > 0 {
                var outLeft = chunk.count
                let result = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    var outPointer = outBuffer.baseAddress
                    return iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                }
                let failure = errno
                chunk.withUnsafeBytes { output.append(contentsOf: $0.prefix(chunk.count - outLeft)) }
                guard result == -1 else { break }
                // E2BIG: the chunk is full, go on; an invalid or cut-off sequence: one U+FFFD, skip a byte.
                if failure == E2BIG { continue }
                if strictly {
                    failedAt = inBuffer.count - inLeft
                    break
                }
                output.append(contentsOf: replacement)
                inPointer = inPointer.map { $0 + 1 }
                inLeft -= 1
            }
        }
        return (output, failedAt)
    }
}
