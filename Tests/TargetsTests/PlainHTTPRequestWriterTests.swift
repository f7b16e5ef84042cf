import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import Targets
import Testing

/// The plain client's request writer sends the bytes NIO's `HTTPRequestEncoder` sends, for heads
/// framed as ``PlainHTTPRequestHead`` frames them, in fewer writes.
@Suite struct PlainHTTPRequestWriterTests {
    /// The bytes `handler` writes for `parts`, each write separately, with the end flushed.
    private func written(by handler: any ChannelHandler, _ parts: [HTTPClientRequestPart]) throws -> [[UInt8]] {
        let channel = EmbeddedChannel(handler: handler)
        defer { _ = try? channel.finish() }
        for part in parts {
            if case .end = part {
                try channel.writeAndFlush(part).wait()
            } else {
                channel.write(part, promise: nil)
            }
        }
        var writes: [[UInt8]] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            writes.append(Array(buffer.readableBytesView))
        }
        return writes
    }

    @Test func theBytesAreNIOsInOneWriteWhenThereIsNoBody() throws {
        let origin = "127.0.0.1:8080"
        typealias Case = (method: NIOHTTP1.HTTPMethod, uri: String, headers: HTTPHeaders, body: String?)
        let json = #"{"a": 1}"# + "\n"
        let heads: [Case] = [
            Case(.GET, "/forecast?latitude=37.25&city=Suwon", ["User-Agent": "wsh/2.0", "Accept": "*/*", "host": origin], nil),
            Case(.POST, "/anything", ["Content-Type": "application/json", "host": origin, "Content-Length": "9"], json),
            Case(.PUT, "/empty", ["host": origin, "Content-Length": "0"], nil),
            Case(.RAW(value: "PROPFIND"), "/dav/", ["Depth": "1", "host": origin, "Content-Length": "0"], nil),
            Case(.DELETE, "/items/a%23b", ["X-Odd": "tab\there, ütf-8 ✓", "host": origin], nil),
            Case(.HEAD, "/", ["host": origin], nil),
        ]
        for (method, uri, headers, body) in heads {
            let head = HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers)
            var parts: [HTTPClientRequestPart] = [.head(head)]
            if let body { parts.append(.body(.byteBuffer(ByteBuffer(string: body)))) }
            parts.append(.end(nil))
            let nio = try written(by: HTTPRequestEncoder(), parts)
            let wsh = try written(by: PlainHTTPRequestWriter(), parts)
            #expect(wsh.joined().elementsEqual(nio.joined()), "\(method) \(uri): \(String(decoding: wsh.joined(), as: UTF8.self))")
            #expect(wsh.count == (body == nil ? 1 : 2), "\(method) \(uri): \(wsh.count) writes, the body its own")
        }
    }

    @Test func aHeadWaitingForItsEndGoesOutWithAFlush() throws {
        let channel = EmbeddedChannel(handler: PlainHTTPRequestWriter())
        defer { _ = try? channel.finish() }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/", headers: ["host": "h"])
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil)
        channel.flush()
        let sent = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: sent) == "GET / HTTP/1.1\r\nhost: h\r\n\r\n")
        // The end's promise completes though nothing is left to write with it.
        try channel.writeAndFlush(HTTPClientRequestPart.end(nil)).wait()
    }
}
