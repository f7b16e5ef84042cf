import NIOHTTP1

extension HTTPVersion {
    /// `HTTP/1.1`, `HTTP/2`: the version as the query language's `version` shows it, HTTP/2 and
    /// later without the minor version, as curl writes them.
    var wireName: String {
        switch (major, minor) {
        case (1, 1): "HTTP/1.1"
        case (2, _): "HTTP/2"
        case (1, 0): "HTTP/1.0"
        case (3, _): "HTTP/3"
        default: "HTTP/\(major).\(minor)"
        }
    }
}
