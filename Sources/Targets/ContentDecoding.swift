import CCompression
import Foundation

/// Undoes an answer's `Content-Encoding` (RFC 9110 8.4): gzip and deflate with the system's zlib,
/// br with its brotli decoder, several codings in the reverse of the order they were applied.
/// The decoded size counts against the body limit as it grows, so a small bomb of a body is an
/// error at the limit, never a gigabyte in memory.
enum ContentDecoding {
    /// What stops a decoding.
    enum Failure: Error, Equatable {
        /// The decoded body passed the limit.
        case tooLarge
        /// The bytes are not in the coding the answer names.
        case invalid(coding: String)
        /// The bytes stop before the coding's end.
        case truncated(coding: String)
        /// A coding wsh does not decode.
        case unknown(coding: String)
    }

    /// The codings the transport asks for (`Accept-Encoding`) and decodes.
    static let acceptedCodings = "gzip, deflate, br"

    /// `body` decoded as its `Content-Encoding` headers say; the same bytes when there is none.
    /// Throws at step `.transport`: `.bodyTooLarge` past `limit`, else an error for people naming the coding.
    static func decode(
        _ body: Data, headers: [Header], limit: Int, request: Request, targetName: String
    ) throws(ProviderError) -> Data {
        guard !body.isEmpty else { return body }
        let values = headers.values(named: "Content-Encoding")
        guard !values.isEmpty else { return body }
        let codings = values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        do {
            return try decode(body, codings: codings, limit: limit)
        } catch .tooLarge {
            throw ProviderError(.bodyTooLarge(request: request.summary, limit: limit), step: .transport, targetName: targetName)
        } catch {
            throw ProviderError.other("the answer to \(request.summary) \(error.explanation)", step: .transport, targetName: targetName)
        }
    }

    /// `body` with each of `codings` undone, the last applied first.
    static func decode(_ body: Data, codings: [String], limit: Int) throws(Failure) -> Data {
        var body = body
        for coding in codings.reversed() where !body.isEmpty {
            switch coding {
            case "", "identity": continue
            // 32 added to the window size reads a gzip or a zlib header, whichever comes.
            case "gzip", "x-gzip": body = try inflate(body, windowBits: 15 + 32, coding: coding, limit: limit)
            // HTTP's deflate is zlib's format, but some servers send raw deflate, which curl also accepts.
            case "deflate": body = try inflate(body, windowBits: hasZlibHeader(body) ? 15 : -15, coding: coding, limit: limit)
            case "br": body = try brotli(body, limit: limit)
            default: throw .unknown(coding: coding)
            }
        }
        return body
    }

    /// Output is produced this many bytes at a time.
    private static let chunkSize = 64 * 1024

    private static func inflate(_ input: Data, windowBits: Int32, coding: String, limit: Int) throws(Failure) -> Data {
        var stream = z_stream()
        guard wsh_inflate_init(&stream, windowBits) == Z_OK else { throw .invalid(coding: coding) }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let result: Failure? = input.withUnsafeBytes { raw -> Failure? in
            guard let base = raw.bindMemory(to: Bytef.self).baseAddress else { return nil }
            var offset = 0
            while true {
                // zlib counts in 32 bits: a larger body is fed a slice at a time.
                if stream.avail_in == 0, offset < raw.count {
                    let length = min(raw.count - offset, Int(UInt32.max))
                    stream.next_in = UnsafeMutablePointer(mutating: base + offset)
                    stream.avail_in = UInt32(length)
                    offset += length
                }
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CCompression.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if produced > limit - output.count { return .tooLarge }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END: return nil
                case Z_OK: continue
                // No progress with room to write: the input ran out before the stream's end.
                case Z_BUF_ERROR: return stream.avail_in == 0 && offset == raw.count ? .truncated(coding: coding) : .invalid(coding: coding)
                default: return .invalid(coding: coding)
                }
            }
        }
        if let result { throw result }
        return output
    }

    private static func brotli(_ input: Data, limit: Int) throws(Failure) -> Data {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .invalid(coding: "br") }
        defer { BrotliDecoderDestroyInstance(state) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let result: Failure? = input.withUnsafeBytes { raw -> Failure? in
            var nextIn = raw.bindMemory(to: UInt8.self).baseAddress
            var availableIn = raw.count
            while true {
                var availableOut = chunk.count
                let status = chunk.withUnsafeMutableBufferPointer { out in
                    var nextOut = out.baseAddress
                    return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                }
                let produced = chunk.count - availableOut
                if produced > limit - output.count { return .tooLarge }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case BROTLI_DECODER_RESULT_SUCCESS: return nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return .truncated(coding: "br")
                default: return .invalid(coding: "br")
                }
            }
        }
        if let result { throw result }
        return output
    }

    /// Whether `body` starts with a zlib header (RFC 1950): deflate as method, and a check that divides by 31.
    private static func hasZlibHeader(_ body: Data) -> Bool {
        guard body.count >= 2 else { return false }
        let first = body[body.startIndex], second = body[body.startIndex + 1]
        return first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }
}

extension ContentDecoding.Failure {
    /// The rest of a sentence that starts with "the answer to GET URL".
    var explanation: String {
        let seeBytes = "; set compress off to see the bytes as sent"
        return switch self {
        case .tooLarge: "is larger than the body limit"
        case .invalid(let coding): "says Content-Encoding: \(coding), but its body is not valid \(coding)" + seeBytes
        case .truncated(let coding): "says Content-Encoding: \(coding), but its body ends before the \(coding) data does" + seeBytes
        case .unknown(let coding):
            "has Content-Encoding: \(coding), which wsh does not decode (it decodes gzip, deflate and br)" + seeBytes
        }
    }
}
