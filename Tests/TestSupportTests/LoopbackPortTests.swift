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
        let fd = try #require(LoopbackPort.socket(boundTo: port))
        defer { close(fd) }
        try #require(listen(fd, 1) == 0)
        #expect(!LoopbackPort.isFree(port))
    }
}
