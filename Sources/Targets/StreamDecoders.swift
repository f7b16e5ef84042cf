import CCompression
import Foundation

/// Where a decoder's output lands before it is handed on: allocated on the decoder's first piece,
/// reused for the rest, 64 KB at a time, and never zero-filled (the
/// output is written before it is read).
private final class OutputChunk {
    private var allocated: UnsafeMutableBufferPointer<UInt8>?

    var buffer: UnsafeMutableBufferPointer<UInt8> {
        if let allocated { return allocated }
        let made = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
        allocated = made
        return made
    }

    deinit { allocated?.deallocate() }
}

/// gzip, or deflate in zlib's format or raw, with the system's zlib.
final class InflateDecoder: StreamDecoder {
    private let coding: String
    private var stream = z_stream()
    /// For deflate, chosen by the first bytes: a zlib header, or raw deflate.
    private var windowBits: Int32?
    private var started = false
    private var ended = false
    private var seenInput = false
    private let chunk = OutputChunk()

    init(coding: String, windowBits: Int32?) throws(ContentDecoding.Failure) {
        self.coding = coding
        self.windowBits = windowBits
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    func decode(_ piece: Data, limit: Int, emit: (Data) throws -> Void) throws {
        guard !piece.isEmpty else { return }
        seenInput = true
        if ended { return }  // Bytes after the end, as curl does, are ignored.
        if !started {
            let bits = windowBits ?? (Self.hasZlibHeader(piece) ? 15 : -15)
            guard wsh_inflate_init(&stream, bits) == Z_OK else { throw ContentDecoding.Failure.invalid(coding: coding) }
            started = true
        }
        // zlib's pointers into this piece must not outlive it.
        defer {
            stream.next_in = nil
            stream.avail_in = 0
        }
        var total = 0
        let out = chunk.buffer
        try piece.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: Bytef.self).baseAddress else { return }
            var offset = 0
            while true {
                // zlib counts in 32 bits: a larger piece is fed a slice at a time.
                if stream.avail_in == 0, offset < raw.count {
                    let length = min(raw.count - offset, Int(UInt32.max))
                    stream.next_in = UnsafeMutablePointer(mutating: base + offset)
                    stream.avail_in = UInt32(length)
                    offset += length
                }
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let status = CCompression.inflate(&stream, Z_NO_FLUSH)
                let produced = out.count - Int(stream.avail_out)
                if produced > limit - total { throw ContentDecoding.Failure.tooLarge }
                total += produced
                // Each chunk goes on as it is made: a small piece that inflates a thousandfold is never whole in memory.
                if produced > 0 { try emit(Data(UnsafeBufferPointer(rebasing: out[0..<produced]))) }
                switch status {
                case Z_STREAM_END:
                    ended = true
                    return
                case Z_OK, Z_BUF_ERROR:
                    // A full chunk may leave more output waiting; else, with this piece used up, the next goes on.
                    if stream.avail_out == 0 { continue }
                    if stream.avail_in == 0, offset >= raw.count { return }
                    if status == Z_BUF_ERROR { throw ContentDecoding.Failure.invalid(coding: coding) }
                default: throw ContentDecoding.Failure.invalid(coding: coding)
                }
            }
        }
    }

    func finish() throws(ContentDecoding.Failure) {
        if seenInput, !ended { throw .truncated(coding: coding) }
    }

    /// Whether `body` starts with a zlib header (RFC 1950): deflate as method, and a check that divides by 31.
    private static func hasZlibHeader(_ body: Data) -> Bool {
        guard body.count >= 2 else { return false }
        let first = body[body.startIndex], second = body[body.startIndex + 1]
        return first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }
}

/// br, with the system's brotli decoder.
final class BrotliStreamDecoder: StreamDecoder {
    private let state: OpaquePointer
    private var ended = false
    private var seenInput = false
    private let chunk = OutputChunk()

    init() throws(ContentDecoding.Failure) {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .invalid(coding: "br") }
        self.state = state
    }

    deinit {
        BrotliDecoderDestroyInstance(state)
    }

    func decode(_ piece: Data, limit: Int, emit: (Data) throws -> Void) throws {
        guard !piece.isEmpty else { return }
        seenInput = true
        if ended { return }
        var total = 0
        let out = chunk.buffer
        try piece.withUnsafeBytes { raw in
            var nextIn = raw.bindMemory(to: UInt8.self).baseAddress
            var availableIn = raw.count
            while true {
                var availableOut = out.count
                var nextOut = out.baseAddress
                let status = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                let produced = out.count - availableOut
                if produced > limit - total { throw ContentDecoding.Failure.tooLarge }
                total += produced
                if produced > 0 { try emit(Data(UnsafeBufferPointer(rebasing: out[0..<produced]))) }
                switch status {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    ended = true
                    return
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return
                default: throw ContentDecoding.Failure.invalid(coding: "br")
                }
            }
        }
    }

    func finish() throws(ContentDecoding.Failure) {
        if seenInput, !ended { throw .truncated(coding: "br") }
    }
}
