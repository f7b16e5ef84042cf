import Foundation

/// The packs that ship inside wsh (packs/ in the repository, embedded by scripts/embed-packs).
enum BundledPacks {
    /// The directory name bundled packs run in; `sample @samples/...` resolves inside the binary.
    static let directory = "<bundled>/packs"

    /// Names of the bundled packs.
    static var names: [String] {
        files.keys.filter { !$0.contains("/") && $0.hasSuffix(".wsh") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// A bundled pack's text.
    static func pack(_ name: String) -> String? { files[name + ".wsh"] }

    /// A file a bundled pack refers to, when `directory` is the bundled packs' directory; or
    /// named from anywhere as `<bundled>/packs/PATH` (how `save` writes the sample of a bundled
    /// target that `edit` made the user's).
    static func file(_ path: String, directory: String) -> Data? {
        let prefix = Self.directory + "/"
        let inPacks = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : directory == Self.directory ? path : nil
        guard let inPacks, let text = files[inPacks] else { return nil }
        return Data(text.utf8)
    }
}

extension Run {
    /// `use NAME`: the first `NAME.wsh` on the pack path: `$WSH_PATH` (colon-separated),
    /// then `~/.config/wsh/packs`, then the packs that ship with wsh. Given `onlyTargets` (the
    /// weather commands' missing ones), the pack declares only those of its targets.
    func usePack(_ word: Word, onlyTargets: Set<String>? = nil) async throws {
        let name = try expand(word).text
        for directory in Self.packDirectories() {
            let path = (directory as NSString).appendingPathComponent(name + ".wsh")
            if FileManager.default.fileExists(atPath: path) {
                let text = try readSourceFile(path, at: word.span).text
                try await runPack(text: text, name: path, directory: directory, word: word, onlyTargets: onlyTargets)
                return
            }
        }
        guard let text = BundledPacks.pack(name) else {
            let available = Self.availablePacks()
            var notes: [String] = []
            if let guess = Suggestion.closest(to: name, in: available) { notes.append("did you mean '\(guess)'?") }
            notes.append("packs: \(available.joined(separator: ", "))")
            throw failure("no pack named '\(name.shortened())'", at: word.span, notes: notes)
        }
        try await runPack(text: text, name: "<pack \(name)>", directory: BundledPacks.directory, word: word, onlyTargets: onlyTargets)
    }

    private func runPack(text: String, name: String, directory: String, word: Word, onlyTargets: Set<String>?) async throws {
        if loading.contains(.pack(name)) { throw failure("pack '\(name)' is already being loaded", at: word.span) }
        loading.append(.pack(name))
        defer { loading.removeLast() }
        guard let onlyTargets else {
            try await execute(text: text, file: name, directory: directory)
            return
        }
        var program = try Parser.parse(SourceFile(name: name, directory: directory, text: text))
        program.statements.removeAll { statement in
            guard case .target(let declaration) = statement.kind, let target = declaration.name.literal else { return false }
            return !onlyTargets.contains(target)
        }
        try await execute(program)
    }

    /// Every pack `use` can load: the pack path's and the bundled ones, sorted. Read from disk each
    /// time, on any thread (completion asks from the prompt's).
    nonisolated static func availablePacks() -> [String] {
        Set(packDirectories().flatMap(packNames(in:)) + BundledPacks.names).sorted()
    }

    nonisolated static func packDirectories() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        var directories = (environment["WSH_PATH"] ?? "").split(separator: ":").map(String.init)
        directories.append(Environment.configDirectory + "/wsh/packs")
        return directories
    }

    nonisolated static func packNames(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".wsh") }.map { String($0.dropLast(4)) }
    }
}
