import Foundation

/// A fixed answer the ``TestServer`` gives for one exact path, whatever the method and query.
public struct StaticRoute: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields besides Content-Length, in order.
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]

    /// An answer with `body` as UTF-8 and a Content-Type.
    public init(status: Int = 200, contentType: String = "application/json", body: String) {
        self.init(status: status, contentType: contentType, body: Array(body.utf8))
    }

    /// An answer with these bytes as the body and a Content-Type.
    public init(status: Int = 200, contentType: String = "application/json", body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }

    /// An answer with exactly these headers (Content-Length is added) and body.
    public init(status: Int = 200, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An answer with the bytes of the file at `path`, its Content-Type from the extension
    /// (`application/json` for .json, `text/plain` for .txt, else `application/octet-stream`).
    public static func file(_ path: String, status: Int = 200) throws -> StaticRoute {
        let url = URL(fileURLWithPath: path)
        let contentType = switch url.pathExtension.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
        return StaticRoute(status: status, contentType: contentType, body: Array(try Data(contentsOf: url)))
    }
}
