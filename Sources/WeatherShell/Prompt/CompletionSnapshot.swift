import Foundation
import Targets

/// What Tab completion knows of the session, taken before each prompt: libedit runs on a thread
/// of its own (the session's loop never waits for a key) and reads this copy, never the
/// run's live state.
public struct CompletionSnapshot: Sendable {
    var variables: [String] = []
    var commands: [String] = []
    var targetNames: [String] = []
    /// Each target's parameter names, in declaration order.
    var targetParameters: [String: [String]] = [:]
    /// What an OpenAPI document says of each target's parameters: description, and enum values
    /// offered after `name=`.
    var parameterDocs: [String: [String: ParameterDoc]] = [:]
    /// Each declared or used reactor's actions.
    var reactorActions: [String: [String]] = [:]
    /// The reactors declared with `reactor NAME { ... }`, which `edit` opens.
    var declaredReactors: [String] = []
    /// Hosts `plugin auth ... host` may name: `set base`'s and the declared targets'.
    var hosts: [String] = []
    /// Where relative paths after `source` start.
    var directory = FileManager.default.currentDirectoryPath
    /// Where the environments `set env ` offers are (``Run/environmentDirectory``).
    var environmentDirectory = FileManager.default.currentDirectoryPath

    /// Completions after `plugin`: names and `order`, then `on`/`off` and the plugin's settings,
    /// then a few example values after a setting that takes one.
    func pluginCompletions(after words: [String]) -> [String] {
        guard let first = words.first else { return BuiltInPlugins.names + ["order"] }
        if first == "order" { return BuiltInPlugins.names.filter { !words.contains($0) } }
        guard let plugin = BuiltInPlugins.named(first) else { return [] }
        if let last = words.last, words.count > 1 {
            if last == "off" { return [] }
            switch plugin.valueCompletions[last] {
            case .words(let values)?: return values
            case .hosts?: return hosts
            case nil: break
            }
        }
        return words.count == 1 ? ["on", "off"] + plugin.keywords : plugin.keywords
    }
}

extension Run {
    /// The session as completion sees it now.
    public func completionSnapshot() -> CompletionSnapshot {
        var snapshot = CompletionSnapshot()
        snapshot.variables = visibleVariableNames
        snapshot.commands = Set(CommandCatalog.names + session.reactorOrder).sorted()
        snapshot.targetNames = session.targets.names
        let view = targetView()
        snapshot.targetParameters = view.parameters
        snapshot.parameterDocs = view.parameterDocs
        let base = options.base.flatMap { URL(string: $0)?.host }
        snapshot.hosts = Set(view.hosts + (base.map { [$0] } ?? [])).sorted()
        for (name, reactor) in session.reactors { snapshot.reactorActions[name] = reactor.actionNames }
        snapshot.declaredReactors = session.reactorOrder.filter { session.reactors[$0] is DeclaredReactorCommand }
        snapshot.directory = currentFile.directory
        snapshot.environmentDirectory = environmentDirectory
        return snapshot
    }

    /// Each target's parameter names and base host, made again only after the targets change:
    /// a prompt with thousands of targets must not compile them all before every line.
    private func targetView() -> CompletionTargetView {
        if let cached = session.completionTargets, cached.generation == session.targets.generation { return cached }
        var view = CompletionTargetView(generation: session.targets.generation)
        var hosts: Set<String> = []
        for declared in session.targets.all {
            guard let target = try? compiledTarget(declared) else { continue }
            view.parameters[declared.name] = target.parameters.map(\.name)
            if let operation = declared.openAPI?.operation {
                view.parameterDocs[declared.name] = Dictionary(operation.parameters.map { ($0.name, ParameterDoc($0)) }, uniquingKeysWith: { first, _ in first })
            }
            if let host = URL(string: target.baseURL)?.host { hosts.insert(host) }
        }
        view.hosts = Array(hosts)
        session.completionTargets = view
        return view
    }

    /// Completions of the last word of `before`, from a fresh snapshot.
    public func completions(for before: String) -> [String] {
        completionSnapshot().completions(for: before)
    }
}

/// What completion derives from the targets, with the registry generation it was made at.
struct CompletionTargetView {
    var generation: Int
    var parameters: [String: [String]] = [:]
    var parameterDocs: [String: [String: ParameterDoc]] = [:]
    var hosts: [String] = []
}
