import Foundation

extension Shell {
    /// `wsh fuzz FILE... [TARGET...]`: loads the files as `wsh serve` does (a `.http` file's
    /// requests declared, not sent), then fuzzes the targets named, or every declared one.
    static func fuzzFiles(_ files: [String], _ options: FuzzOptions, _ run: Run, _ interrupts: InterruptHandler) async -> Int32 {
        if let code = await loadFiles(files, run, interrupts, command: "fuzz") { return code }
        return await finish(run, interrupts) {
            do {
                try await run.fuzz(options, at: nil)
            } catch let diagnostic as Diagnostic {
                try run.report(diagnostic)
            }
        }
    }
}
