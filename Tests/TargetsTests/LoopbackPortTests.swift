import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import TestSupport
import Testing

/// Ports named for servers that tests start: a port the kernel might give anyone else (a server
/// binding port 0, a client's end of a connection) made nginx fail to bind while the test talked
/// to another server on that port.
@Suite struct LoopbackPortTests {
    @Test func portsAreBelowTheKernelsOwnPicksAndNeverTheSameTwice() throws {
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        let lowestEphemeral = try #require(range.first)
        let ports = try (0..<200).map { _ in try LoopbackPort.free() }
        #expect(Set(ports).count == ports.count)
        #expect(ports.allSatisfy { $0 >= 1024 && $0 < lowestEphemeral })
    }

    @Test func aPortSomeoneListensOnIsNotFree() throws {
        // A port handed out here is never handed out again by this process: no other test takes it.
        let port = try LoopbackPort.free()
        #expect(LoopbackPort.isFree(port))
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(bound && listen(fd, 1) == 0)
        #expect(!LoopbackPort.isFree(port))
    }
}
