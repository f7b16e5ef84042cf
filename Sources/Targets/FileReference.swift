import Foundation

/// What follows `@` in a multipart file item, read as curl's `-F` reads it: a path, then
/// optionally `;type=MEDIA/TYPE` for the part's Content-Type (`photo.raw;type=image/png`).
public struct FileReference: Sendable, Equatable {
    /// The file's path, as written.
    public var path: String
    /// The part's Content-Type given with `;type=`; `nil` when the extension decides.
    public var contentType: String?

    /// A file part of `path`, of type `contentType` (`nil`: by the extension).
    public init(path: String, contentType: String? = nil) {
        self.path = path
        self.contentType = contentType
    }

    /// Splits `written` at its last `;type=` followed by a media type; without one, all of it is the path.
    public init(_ written: String) {
        if let marker = written.range(of: ";type=", options: .backwards), marker.upperBound < written.endIndex,
           marker.lowerBound > written.startIndex {
            path = String(written[..<marker.lowerBound])
            contentType = String(written[marker.upperBound...])
        } else {
            path = written
            contentType = nil
        }
    }

    /// The reference as ``ParameterValue/file(_:)`` carries it: the path, then `;type=` when given.
    public var written: String {
        path + (contentType.map { ";type=" + $0 } ?? "")
    }

    /// The Content-Type of the part: the one given, else the extension's (``MediaType/of(file:)``).
    public var partContentType: String {
        contentType ?? MediaType.of(file: path)
    }
}
