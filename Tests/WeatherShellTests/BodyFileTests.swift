import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// `> FILE`: the file checked before the call, then written as the body arrives.
@Suite struct BodyFileTests {
    /// A named pipe's reader gets the body, as from `curl -o FIFO`: checking the FIFO before the
    /// call must not open it, as opening and closing it would give its reader an end of file first.
    @Test func aFIFOIsCheckedWithoutOpeningItAndItsReaderGetsTheBody() throws {
        let directory = try ScratchDirectory.make("wsh-fifo")
        defer { ScratchDirectory.remove(directory) }
        let fifo = directory.appendingPathComponent("answers").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // No reader yet: opening the FIFO to write would wait for one.
        let checked = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var problem: String? = "not checked"
        Thread {
            problem = BodyFile.checkWritable(fifo)
            checked.signal()
        }.start()
        if checked.wait(timeout: .now() + 30) == .timedOut {
            Issue.record("checking the FIFO opened it, and waited for a reader")
            // Be that reader, so that the test ends.
            let fd = open(fifo, O_RDONLY)
            checked.wait()
            close(fd)
        }
        #expect(problem == nil)

        let body = Data(#"{"id":7}"#.utf8)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        #expect(BodyFile.write(body, to: fifo) == nil)
        while !reader.isFinished { usleep(1000) }
        #expect(received == body)
    }
}
