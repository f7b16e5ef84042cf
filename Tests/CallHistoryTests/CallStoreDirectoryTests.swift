@testable import CallHistory
import Foundation
import Testing
import TestSupport

/// The history's directory: made with its missing parents, private to the user; a file where a
/// directory should be is named in words, not as a Foundation error code.
@Suite struct CallStoreDirectoryTests {
    @Test func missingParentsAreMadePrivateAndAFileInTheWayIsNamed() throws {
        let root = try ScratchDirectory.make("wsh-history-dir")
        let nested = root.appendingPathComponent("state/wsh")
        _ = try CallStore(writingTo: nested.appendingPathComponent("calls.sqlite").path, busyTimeout: 1000)
        let mode = try FileManager.default.attributesOfItem(atPath: nested.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)

        let file = root.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        #expect {
            try CallStore(writingTo: file.appendingPathComponent("wsh/calls.sqlite").path, busyTimeout: 1000)
        } throws: { error in
            let detail = (error as? CallStoreFailure)?.detail ?? "\(error)"
            return detail == "cannot make the directory \(file.path)/wsh: \(file.path) is a file"
        }
    }
}
