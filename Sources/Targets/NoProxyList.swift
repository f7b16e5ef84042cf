/// The hosts that `NO_PROXY` sends directly, with curl's meaning: comma-separated names, each
/// matching itself and its subdomains (a leading dot changes nothing), `*` alone matching every
/// host, IP addresses matching exactly, IPv4 ranges as `10.0.0.0/8`, and an optional `:port`
/// restricting an entry to that port. Names compare without regard to case.
struct NoProxyList: Sendable, Hashable {
    private struct Entry: Sendable, Hashable {
        var host: String
        var port: Int?
        /// The leading bits of an IPv4 network, for `a.b.c.d/bits`.
        var network: (address: UInt32, bits: Int)?
        /// An IP address, which matches only itself.
        var isAddress: Bool {
            host.contains(":") || NoProxyList.ipv4(Substring(host)) != nil
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.host == rhs.host && lhs.port == rhs.port && lhs.network?.address == rhs.network?.address
                && lhs.network?.bits == rhs.network?.bits
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(host)
            hasher.combine(port)
        }
    }

    private var entries: [Entry] = []
    private var matchesAll = false

    /// Whether nothing bypasses the proxy.
    var isEmpty: Bool { entries.isEmpty && !matchesAll }

    /// Reads the value of `NO_PROXY`; entries that are empty are skipped.
    init(_ text: String) {
        for item in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            if item == "*" {
                matchesAll = true
                continue
            }
            let (hostText, portText) = ProxyServer.splitHostAndPort(item)
            var host = hostText
            var network: (address: UInt32, bits: Int)?
            if let slash = host.firstIndex(of: "/") {
                let bits = Int(host[host.index(after: slash)...])
                let address = Self.ipv4(Substring(host[..<slash]))
                if let bits, let address, (0...32).contains(bits) { network = (address, bits) }
                host = String(host[..<slash])
            }
            while host.hasPrefix(".") { host.removeFirst() }
            while host.hasSuffix(".") { host.removeLast() }
            guard !host.isEmpty else { continue }
            entries.append(Entry(host: host.lowercased(), port: portText.flatMap { Int($0) }, network: network))
        }
    }

    /// Whether a request to `host` on `port` goes directly. `host` as in a URL, brackets allowed.
    func bypasses(host: String, port: Int) -> Bool {
        if matchesAll { return true }
        guard !entries.isEmpty else { return false }
        var name = Substring(host.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        while name.hasSuffix(".") { name = name.dropLast() }
        let address = Self.ipv4(name)
        for entry in entries where entry.port == nil || entry.port == port {
            if let network = entry.network {
                if let address, network.bits == 0 || address >> (32 - network.bits) == network.address >> (32 - network.bits) {
                    return true
                }
                continue
            }
            if name == entry.host { return true }
            // A suffix match only between names: 10.0.0.1 is not "in" 0.0.1.
            if address == nil, !entry.isAddress, name.hasSuffix("." + entry.host) { return true }
        }
        return false
    }

    /// `a.b.c.d` as a number; nil for anything else.
    fileprivate static func ipv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard part.count <= 3, let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
