import Foundation
import Testing
import TestSupport

/// wsh fuzz beside Schemathesis (PyPI, the version scripts/ensure-schemathesis.sh pins), run by
/// bench/fuzz-compare against fresh planted servers with the same call budget: wsh finds at least
/// as many of the planted defects, none of its failures is something else, and both spend the
/// budget. The wall times are in the table it prints (bench/run has the same row); they are not
/// asserted here.
@Suite struct FuzzComparisonTests {
    @Test func wshFindsAtLeastWhatSchemathesisFindsWithTheSameCalls() async throws {
        let directory = try WSHProcess.temporaryDirectory()
        let output = directory.appendingPathComponent("compare.json")
        let table = try await FuzzTests.shell("python3 \(HTTPBinServer.repository.path)/bench/fuzz-compare --wsh \(WSHProcess.binary) --json \(output.path) 2>&1",
                                              in: directory)
        print(table)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any], "\(table)")
        let tools = try #require(json["tools"] as? [[String: Any]])
        let schemathesis = try #require(tools.first { $0["tool"] as? String == "schemathesis" })
        let wsh = try #require(tools.first { $0["tool"] as? String == "wsh" })
        let stFound = schemathesis["found"] as? [String] ?? [], wshFound = wsh["found"] as? [String] ?? []
        #expect(schemathesis["available"] as? Bool == true, "\(table)")
        #expect(wshFound.count >= stFound.count, "\(table)")
        #expect(wshFound.count == 13, "\(table)")
        #expect((wsh["other"] as? [String] ?? []).isEmpty, "\(table)")
        #expect(wsh["calls"] as? Int == schemathesis["calls"] as? Int, "\(table)")
    }
}
