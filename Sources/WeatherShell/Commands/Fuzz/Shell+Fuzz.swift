import Foundation

extension Shell {
    /// `wsh fuzz FILE... [TARGET...]`: loads the files as `wsh serve` does (a `.http` file's
    /// requests declared, not sent), then fuzzes the targets named, or every declared one.
    /// A `.wsh` file runs as written, but its calls (a `source`d file's too) are held to fuzz's
    /// own rules, as `wsh load`'s users are: loopback or an `--allow-host` only, and GET, HEAD and
    /// OPTIONS only unless `--allow-writes`; any other is refused unsent, an error at its line.
    static func fuzzFiles(_ files: [String], _ options: FuzzOptions, _ run: Run, _ interrupts: InterruptHandler) async -> Int32 {
        let callGuard = AllowedHostsTransport(
            allowed: options.allowedHosts, action: "call",
            writeRefusal: options.allowWrites ? nil : "wsh fuzz sends only GET, HEAD and OPTIONS without --allow-writes, the calls of its files too")
        // The fuzz calls have their rules of their own (Run.fuzz): the guard is for the files.
        if let code = await loadFiles(files, run, interrupts, command: "fuzz", holdingCallsTo: callGuard) { return code }
        return await finish(run, interrupts) {
            do {
                try await run.fuzz(options, at: nil)
            } catch let diagnostic as Diagnostic {
                try run.report(diagnostic)
            }
        }
    }
}
