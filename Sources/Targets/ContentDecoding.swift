import Foundation

/// Undoes an answer's `Content-Encoding` (RFC 9110 8.4): gzip and deflate with the system's zlib,
/// br with its brotli decoder, several codings in the reverse of the order they were applied.
/// The decoded size counts against the body limit as it grows, so a small bomb of a body is an
/// error at the limit, never a gigabyte in memory.
public enum ContentDecoding {
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
        /// More codings than ``maximumCodings``, one inside another.
        case tooManyCodings(Int)
    }

    /// The most codings an answer may apply one inside another: curl's limit too (CVE-2022-32206),
    /// since each is a decoder with buffers of its own.
    static let maximumCodings = 5

    /// The codings the transport asks for (`Accept-Encoding`) and decodes.
    public static let acceptedCodings = "gzip, deflate, br"

    /// `body` decoded as its `Content-Encoding` headers say; the same bytes when there is none.
    /// Throws at step `.transport`: `.bodyTooLarge` past `limit`, else an error for people naming the coding.
    static func decode(
        _ body: Data, headers: [Header], limit: Int, request: Request, targetName: String
    ) throws(ProviderError) -> Data {
        guard !body.isEmpty else { return body }
        let codings = codings(in: headers)
        guard !codings.isEmpty else { return body }
        do {
            return try decode(body, codings: codings, limit: limit)
        } catch {
            throw providerError(error, limit: limit, request: request, targetName: targetName)
        }
    }

    /// The codings a response's `Content-Encoding` fields name, lowercased, in the order applied;
    /// empty when there is none.
    static func codings(in headers: [Header]) -> [String] {
        let values = headers.values(named: "Content-Encoding")
        guard !values.isEmpty else { return [] }
        return values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpacesAndTabs.lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
    }

    /// `body` with each of `codings` undone, the last applied first.
    static func decode(_ body: Data, codings: [String], limit: Int) throws(Failure) -> Data {
        let pipeline = try DecoderPipeline(codings: codings, limit: limit)
        var decoded = Data()
        do {
            try pipeline.decode(body) { decoded.append($0) }
        } catch {
            // Appending throws nothing: whatever stopped the decoding is a decoder's failure.
            throw error as? Failure ?? .invalid(coding: codings.joined(separator: ", "))
        }
        try pipeline.finish()
        return decoded
    }

    static func providerError(_ failure: Failure, limit: Int, request: Request, targetName: String) -> ProviderError {
        if failure == .tooLarge {
            return ProviderError(.bodyTooLarge(request: request.summary, limit: limit), step: .transport, targetName: targetName)
        }
        return .other("the answer to \(request.summary) \(failure.explanation)", step: .transport, targetName: targetName)
    }
}

/// The decoders for an answer's codings, last applied first, fed the body a piece at a time as it
/// arrives: what one piece decodes to comes out a chunk at a time, so a body can be written to a
/// file as it comes, in bounded memory.
final class DecoderPipeline {
    private let stages: [any StreamDecoder]
    private let limit: Int
    private var produced = 0

    /// Throws `.unknown` for a coding wsh does not decode. `limit` bounds the decoded body.
    init(codings: [String], limit: Int) throws(ContentDecoding.Failure) {
        if codings.count > ContentDecoding.maximumCodings { throw .tooManyCodings(codings.count) }
        var stages: [any StreamDecoder] = []
        for coding in codings.reversed() {
            switch coding {
            // 32 added to the window size reads a gzip or a zlib header, whichever comes.
            case "gzip", "x-gzip": stages.append(try InflateDecoder(coding: coding, windowBits: 15 + 32))
            // HTTP's deflate is zlib's format, but some servers send raw deflate, which curl also accepts.
            case "deflate": stages.append(try InflateDecoder(coding: coding, windowBits: nil))
            case "br": stages.append(try BrotliStreamDecoder())
            default: throw .unknown(coding: coding)
            }
        }
        self.stages = stages
        self.limit = limit
    }

    /// Decodes `piece`, handing what it decodes to `emit` as it is made, at most 64 KB at a time, so
    /// a small piece that inflates a thousandfold is never whole in memory. Throws `.tooLarge` once
    /// the decoded body passes the limit, and whatever `emit` throws.
    func decode(_ piece: Data, emit: (Data) throws -> Void) throws {
        try feed(piece, toStage: 0, emit: emit)
    }

    private func feed(_ data: Data, toStage index: Int, emit: (Data) throws -> Void) throws {
        guard index < stages.count else {
            produced += data.count
            try emit(data)
            return
        }
        // A coding inside another is bounded too: its output is never smaller than the last one's.
        try stages[index].decode(data, limit: limit - produced) { output in
            try feed(output, toStage: index + 1, emit: emit)
        }
    }

    /// The end of the body: throws `.truncated` when a coding's data stopped before its end.
    func finish() throws(ContentDecoding.Failure) {
        for stage in stages { try stage.finish() }
    }
}

/// One coding's decoder, fed a piece at a time.
protocol StreamDecoder: AnyObject {
    /// Decodes `piece`, handing its output to `emit` a chunk at a time as it is made; throws
    /// `.tooLarge` once this piece's output passes `limit`, `.invalid` for bytes not in the coding.
    func decode(_ piece: Data, limit: Int, emit: (Data) throws -> Void) throws
    /// Throws `.truncated` when the data seen stopped before the coding's end.
    func finish() throws(ContentDecoding.Failure)
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
        case .tooManyCodings(let count):
            "applies \(count) Content-Encodings one inside another; wsh decodes at most \(ContentDecoding.maximumCodings)" + seeBytes
        }
    }
}
