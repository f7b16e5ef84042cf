import Targets
import Testing

/// The extension table multipart parts, `@FILE` bodies and samples take their Content-Type from.
@Suite struct MediaTypeTests {
    /// curl's own table (lib/mime.c, ContentTypeForFilename): the same type for each of its ten.
    @Test(arguments: [
        ("a.gif", "image/gif"), ("a.jpg", "image/jpeg"), ("a.jpeg", "image/jpeg"), ("a.png", "image/png"),
        ("a.svg", "image/svg+xml"), ("a.txt", "text/plain"), ("a.htm", "text/html"), ("a.html", "text/html"),
        ("a.pdf", "application/pdf"), ("a.xml", "application/xml"),
    ])
    func curlsExtensionsGiveCurlsTypes(file: String, type: String) {
        #expect(MediaType.of(file: file) == type)
        #expect(MediaType.of(file: file.uppercased()) == type)
    }

    @Test func extensionsBeyondCurlsComeFromTheRegisteredList() {
        #expect(MediaType.of(file: "data.json") == "application/json")
        #expect(MediaType.of(file: "/tmp/clip.mkv") == "video/x-matroska")
        #expect(MediaType.of(file: "book.epub") == "application/epub+zip")
        #expect(MediaType.of(file: "slides.odp") == "application/vnd.oasis.opendocument.presentation")
        #expect(MediaType.of(file: "photo.JPG") == "image/jpeg")
        #expect(MediaType.of(file: "feed.atom") == "application/atom+xml")
        // The table's own choices win where the list is older: IANA's audio/wav, application/yaml.
        #expect(MediaType.of(file: "a.wav") == "audio/wav")
        #expect(MediaType.of(file: "a.yaml") == "application/yaml")
        // The list's first type for an extension it gives twice; extensions lowercased.
        #expect(MediaType.of(file: "run.sh") == "application/x-sh")
        #expect(MediaType.of(file: "q.CQL") == "text/cql")
        #expect(MediaType.of(file: "notes.~") == "application/x-trash")
        #expect(MediaType.of(file: "a.zst") == "application/zstd")
    }

    @Test func anUnknownOrMissingExtensionIsOctetStreamAsCurlSendsIt() {
        #expect(MediaType.of(file: "blob.nosuchext") == "application/octet-stream")
        #expect(MediaType.of(file: "Makefile") == "application/octet-stream")
        #expect(MediaType.known(file: "blob.nosuchext") == nil)
    }

    @Test func aFileReferenceSplitsCurlsTypeSuffix() {
        #expect(FileReference("up.raw;type=image/png") == FileReference(path: "up.raw", contentType: "image/png"))
        #expect(FileReference("up.raw;type=image/png").partContentType == "image/png")
        #expect(FileReference("/a;b/up.png").path == "/a;b/up.png")
        #expect(FileReference("/a;b/up.png").partContentType == "image/png")
        // An empty type, or one with no path before it, is part of the path.
        #expect(FileReference("up.png;type=").path == "up.png;type=")
        #expect(FileReference(";type=text/plain").path == ";type=text/plain")
    }
}
