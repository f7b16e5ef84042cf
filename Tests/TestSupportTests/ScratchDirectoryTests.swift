import Foundation
import Testing
import TestSupport

/// Tests' scratch directories are made where asked, readable as asked, and removed.
@Suite struct ScratchDirectoryTests {
    @Test func aDirectoryIsMadeWithItsPermissionsAndRemovedWithWhatItHolds() throws {
        let directory = try ScratchDirectory.make("wsh-scratch-test", permissions: 0o700)
        #expect(directory.lastPathComponent.hasPrefix("wsh-scratch-test-"))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        try Data("x".utf8).write(to: directory.appendingPathComponent("file"))
        ScratchDirectory.remove(directory)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
