import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to a loopback port for tests that send bytes no HTTP client would
/// (malformed requests) or many requests on one keep-alive connection. Reads time out after
/// `timeout` seconds, so a server that never answers fails the test instead of hanging it.
/// Unchecked Sendable: a test hands it from task to task but uses it from one at a time.
public final class RawHTTPConnection: @unchecked Sendable {
    /// One answer as read off the wire.
    public struct Answer: Sendable {
        /// The status code; 0 when the status line could not be read.
        public let status: Int
        /// The head, status line and header lines.
        public let head: String
        /// The body, by Content-Length.
        public let body: Data
        /// The value of the first header of that name, case-insensitive.
        public func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a connection or a read failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// A failure that says this.
        public init(description: String) {
            self.description = description
        }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int, timeout: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "cannot connect to port \(port)")
        }
    }

    deinit { close(descriptor) }

    /// Sends `bytes` as they are.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "the server closed the connection while sending") }
            offset += written
        }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads one answer: the head, then as many body bytes as Content-Length says (none without it).
    public func readAnswer() throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if let found = find(separator) { headEnd = found } else { try fill() }
        }
        let end = headEnd ?? 0
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var answer = Answer(status: status, head: head, body: Data())
        let length = answer.header("Content-Length").flatMap(Int.init) ?? 0
        while buffer.count < length { try fill() }
        answer = Answer(status: status, head: head, body: Data(buffer[..<length]))
        buffer.removeFirst(length)
        return answer
    }

    /// Whether the server has closed the connection: a read returns end of file (or a reset),
    /// not a timeout and not more bytes.
    public func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let (count, error) = receive(into: &chunk)
        return count == 0 || (count < 0 && error == ECONNRESET)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let (count, error) = receive(into: &chunk)
        guard count > 0 else {
            throw Failure(description: count == 0 ? "the server closed the connection"
                          : error == EAGAIN || error == EWOULDBLOCK ? "no answer in time" : "cannot read: errno \(error)")
        }
        buffer += chunk[..<count]
    }

    /// One `recv` into `chunk`, again when a signal interrupted it (the test process gets signals
    /// of its own, SIGCHLD of the programs it runs): its count, and errno when it is negative.
    private func receive(into chunk: inout [UInt8]) -> (count: Int, error: Int32) {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            let error = errno
            if count < 0, error == EINTR { continue }
            return (count, count < 0 ? error : 0)
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where buffer[index] == pattern[0] && Array(buffer[index..<index + pattern.count]) == pattern {
            return index
        }
        return nil
    }
}
