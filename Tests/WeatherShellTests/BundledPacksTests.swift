import Foundation
import Testing
@testable import WeatherShell

@Suite struct BundledPacksTests {
    @Test func embeddedPacksMatchTheFilesInPacks() throws {
        let packs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("packs")
        let enumerator = FileManager.default.enumerator(atPath: packs.path)
        var onDisk: [String: String] = [:]
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: packs.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { onDisk[path] = try String(contentsOf: packs.appendingPathComponent(path), encoding: .utf8) }
        }
        #expect(onDisk.keys.sorted() == BundledPacks.files.keys.sorted(), "run scripts/embed-packs")
        for (path, text) in onDisk { #expect(BundledPacks.files[path] == text, "\(path) differs: run scripts/embed-packs") }
        #expect(BundledPacks.names == ["open-meteo", "openweathermap"])
    }
}
