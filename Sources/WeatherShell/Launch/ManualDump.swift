import ArgumentParser
import Targets

/// `wsh --experimental-dump-help`, the JSON that swift-argument-parser's `generate-manual` reads
/// to write the man page. `serve`, `test`, `fuzz` and `load` are parsed apart from
/// ``WSHCommand`` (its FILE would take their names first), so its own dump knows none of them
/// and has the `help` subcommand the parser adds, which wsh does not have: here the four are its
/// subcommands instead, each as its own `--experimental-dump-help` describes it, so the man page
/// carries what `wsh SUB --help` prints.
enum ManualDump {
    /// The subcommands, by name as the command line reads them, with their dumps.
    static var subcommands: [(name: String, dump: String)] {
        [("serve", ServeCommand._dumpHelp()), ("test", TestCommand._dumpHelp()), ("fuzz", FuzzCommand._dumpHelp()), ("load", LoadCommand._dumpHelp())]
    }

    /// The dump, as `wsh --experimental-dump-help` prints it; WSHCommand's own should it not read.
    static var text: String {
        let root = WSHCommand._dumpHelp()
        guard case .object(var members)? = try? JSONValue.parse(root),
              let index = members.firstIndex(where: { $0.key == "command" }), case .object(var command) = members[index].value else { return root }
        var described: [JSONValue] = []
        for subcommand in Self.subcommands {
            guard case .object(var info)? = (try? JSONValue.parse(subcommand.dump))?["command"] else { return root }
            // Its own `help` subcommand, which the parser adds to every dump, goes too.
            info.removeAll { ["commandName", "superCommands", "subcommands", "defaultSubcommand"].contains($0.key) }
            info.insert(JSONMember(key: "superCommands", value: .array([.string("wsh")])), at: 0)
            info.insert(JSONMember(key: "commandName", value: .string(subcommand.name)), at: 1)
            described.append(.object(info))
        }
        command.removeAll { $0.key == "subcommands" || $0.key == "defaultSubcommand" }
        command.append(JSONMember(key: "subcommands", value: .array(described)))
        // Not a subcommand that runs without its name: what makes the synopsis `wsh [subcommand]`,
        // as wsh runs FILE, -c or the prompt with none.
        command.append(JSONMember(key: "defaultSubcommand", value: .string("")))
        members[index].value = .object(command)
        return JSONValue.object(members).prettyText
    }
}
