import Foundation

/// Media types by file extension, for multipart file parts, `@file` bodies and sample files.
///
/// curl picks a multipart part's type from a table of ten extensions (`gif jpg jpeg png svg txt
/// htm html pdf xml`, lib/mime.c) and sends `application/octet-stream` for any other. This table
/// gives the same type for those ten, and knows every other extension of Debian's media-types list
/// (``RegisteredMediaTypes``, made by scripts/make-media-types from /etc/mime.types); where the two differ the types here are the current IANA ones
/// (`wav` is `audio/wav`, `yaml` is `application/yaml`).
public enum MediaType {
    /// The media type of a file by its extension (case-insensitive); `application/octet-stream`
    /// when the extension is not known, as curl sends it.
    public static func of(file path: String) -> String {
        known(file: path) ?? "application/octet-stream"
    }

    /// The media type of a file by its extension, or `nil` when the extension is not known.
    public static func known(file path: String) -> String? {
        let fileExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        return byExtension[fileExtension] ?? RegisteredMediaTypes.byExtension[fileExtension]
    }

    /// A Content-Type without its parameters, lowercased: `text/html` for `Text/HTML; charset=utf-8`.
    public static func essence(of contentType: String) -> String {
        contentType.split(separator: ";").first.map { $0.trimmingSpacesAndTabs.lowercased() } ?? ""
    }

    /// Whether a media type is JSON: `application/json` or a `+json` type (`application/problem+json`),
    /// whatever its parameters and case.
    public static func isJSON(_ contentType: String) -> Bool {
        let essence = essence(of: contentType)
        return essence == "application/json" || essence.hasSuffix("+json")
    }

    /// The extension to save a body of this media type under (`json` for `application/problem+json`);
    /// `nil` when none is known.
    public static func fileExtension(for contentType: String) -> String? {
        let essence = essence(of: contentType)
        if isJSON(essence) { return "json" }
        if essence.hasSuffix("+xml") { return "xml" }
        return preferredExtension[essence]
    }

    private static let byExtension: [String: String] = [
        "json": "application/json", "geojson": "application/geo+json", "jsonld": "application/ld+json",
        "xml": "application/xml", "txt": "text/plain", "text": "text/plain", "csv": "text/csv", "tsv": "text/tab-separated-values",
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
        "md": "text/markdown", "yaml": "application/yaml", "yml": "application/yaml", "toml": "application/toml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff",
        "avif": "image/avif", "heic": "image/heic",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz", "7z": "application/x-7z-compressed",
        "wasm": "application/wasm", "bin": "application/octet-stream",
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "flac": "audio/flac", "m4a": "audio/mp4",
        "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime", "avi": "video/x-msvideo",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "doc": "application/msword", "xls": "application/vnd.ms-excel",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "rtf": "application/rtf", "ics": "text/calendar", "vcf": "text/vcard", "proto": "text/plain",
        "pb": "application/x-protobuf", "msgpack": "application/msgpack",
    ]

    private static let preferredExtension: [String: String] = [
        "text/plain": "txt", "text/html": "html", "text/csv": "csv", "text/css": "css", "text/javascript": "js",
        "application/javascript": "js", "text/markdown": "md", "application/xml": "xml", "text/xml": "xml",
        "application/yaml": "yaml", "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
        "image/svg+xml": "svg", "application/pdf": "pdf", "application/zip": "zip", "application/gzip": "gz",
        "application/octet-stream": "bin", "audio/mpeg": "mp3", "video/mp4": "mp4", "font/woff2": "woff2",
    ]
}
