@testable import Targets
import Testing

/// `NO_PROXY` read as curl reads it.
@Suite struct NoProxyListTests {
    @Test func aNameCoversItselfAndItsSubdomainsWithOrWithoutALeadingDot() {
        for text in ["example.com", ".example.com", "EXAMPLE.com."] {
            let list = NoProxyList(text)
            #expect(list.bypasses(host: "example.com", port: 80), "\(text)")
            #expect(list.bypasses(host: "api.Example.com", port: 443), "\(text)")
            #expect(list.bypasses(host: "example.com.", port: 80), "\(text)")
            #expect(!list.bypasses(host: "badexample.com", port: 80), "\(text)")
            #expect(!list.bypasses(host: "example.org", port: 80), "\(text)")
        }
    }

    @Test func aStarAloneCoversEveryHost() {
        #expect(NoProxyList("*").bypasses(host: "anything.example", port: 1))
        #expect(NoProxyList("a.example, *").bypasses(host: "10.1.2.3", port: 1))
        #expect(!NoProxyList("*.example").bypasses(host: "other.test", port: 1))
    }

    @Test func addressesMatchExactlyAndRangesByPrefix() {
        let list = NoProxyList("127.0.0.1, 10.0.0.0/8 ,::1")
        #expect(list.bypasses(host: "127.0.0.1", port: 8080))
        #expect(!list.bypasses(host: "127.0.0.2", port: 8080))
        #expect(!list.bypasses(host: "host.127.0.0.1", port: 8080))
        #expect(list.bypasses(host: "10.200.3.4", port: 80))
        #expect(!list.bypasses(host: "11.0.0.1", port: 80))
        #expect(list.bypasses(host: "::1", port: 80))
        #expect(list.bypasses(host: "[::1]", port: 80))
        // An address is not a name: 0.0.1 is no suffix match for 10.0.0.1.
        #expect(!NoProxyList("0.0.1").bypasses(host: "10.0.0.1", port: 80))
    }

    @Test func aPortRestrictsAnEntry() {
        let list = NoProxyList("internal.example:8080,[::1]:9000")
        #expect(list.bypasses(host: "internal.example", port: 8080))
        #expect(!list.bypasses(host: "internal.example", port: 443))
        #expect(list.bypasses(host: "::1", port: 9000))
        #expect(!list.bypasses(host: "::1", port: 9001))
    }

    @Test func emptyEntriesAreSkipped() {
        let list = NoProxyList(" , ,")
        #expect(list.isEmpty)
        #expect(!list.bypasses(host: "example.com", port: 80))
    }
}
