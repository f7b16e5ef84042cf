@testable import Plugins
import Testing

/// Log lines built as bytes.
@Suite struct LineBufferTests {
    @Test func numbersAndTextComeOutAsWritten() {
        var line = LineBuffer(capacity: 8)
        line.append(0)
        line.append(" ")
        line.append(-42)
        line.append(" ")
        line.append(Int.max)
        line.append(" é ✓")
        #expect(line.text == "0 -42 \(Int.max) é ✓")
    }
}
