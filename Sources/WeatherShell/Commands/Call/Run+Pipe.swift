import Foundation

extension Run {
    /// `STATEMENT | COMMAND`: the statement runs with its output held, then the output goes to the
    /// shell command's stdin. A command that fails is a runtime error, as in `sh -e`. In a reactor
    /// action an error of the statement ends the action, as it does unpiped, and a call's body,
    /// which an action does not print, goes to the command.
    func runPiped(_ statement: Statement, into pipe: PipeCommand) async throws {
        let held = ShellIO.holding(stdoutIsTerminal: false, stderrIsTerminal: io.stderrIsTerminal)
        let child = Run(piping: self, io: held)
        var unpiped = statement
        unpiped.pipe = nil
        // A call in an action prints nothing, but `| COMMAND` asks for its output: the command gets it.
        if actionContext != nil, child.outputOverride == .quiet { child.outputOverride = nil }
        if actionContext != nil {
            // In a reactor action the statement's error ends the action and runs its `catch`, as
            // the same statement unpiped does; the command gets nothing to run on.
            try await child.execute(unpiped)
        } else {
            let failuresBefore = outcomes.failures
            try await child.execute([unpiped])
            // A statement that failed (at the prompt, where it does not stop the session) gives the
            // command nothing to run on, as under bail.
            guard outcomes.failures == failuresBefore else { return }
        }
        io.flush()
        // In the terminal's foreground the command may read its keys (`| less`, `| fzf`): they are
        // its own, Ctrl-C too, and wsh waits for it, as for its pager. Stopping the sh around it
        // orphaned a less that went on reading the keyboard with the prompt. Not in a background
        // job (`wsh script &`): setting the terminal's modes would stop it by SIGTTOU.
        let input = held.takeHeld()
        let atTerminal = TerminalQuestion.canAsk && tcgetpgrp(STDIN_FILENO) == getpgrp()
        let status = atTerminal ? try await ShellCommandPipe.page(pipe.text, input: input)
                                : try await ShellCommandPipe.run(pipe.text, input: input)
        // Ctrl-C, which was the command's (`jq` dies of it), interrupts the statement, as it would have.
        if atTerminal, status == 128 + SIGINT { throw CancellationError() }
        if status != 0 {
            // `get URL | .name`, as jq's filters are written: a query, which sh cannot run.
            let query = status == 127 && pipe.text.hasPrefix(".") ? pipe.text.prefix { $0 != " " } : nil
            let notes = query.map { ["after | comes a shell command; to query the answer, write: print \($0) (or: | jq '\($0)')"] } ?? []
            throw failure("'\(pipe.text.shortened())' exited with status \(status)", at: pipe.span, notes: notes)
        }
    }

    /// At the prompt, a statement that prints runs with its output held; when it is longer than the
    /// screen it goes through the pager, else it is written as usual.
    func runPaged(_ statement: Statement, pager: String, size: (rows: Int, columns: Int)) async throws {
        // Releasable: an answer printed as it arrives goes to the terminal at once, past the pager.
        let held = ShellIO.holding(stdoutIsTerminal: true, stderrIsTerminal: io.stderrIsTerminal, releasable: true)
        let child = Run(piping: self, io: held)
        defer {
            let rest = held.takeHeld()
            if !rest.isEmpty { io.out(styled: String(decoding: rest, as: UTF8.self)) }
        }
        try await child.execute([statement])
        let output = held.takeHeld()
        guard Pager.isLonger(output, than: size) else {
            io.out(styled: String(decoding: output, as: UTF8.self))
            return
        }
        io.flush()
        // sh's 127 and 126: no such command, or not one to run. The text is printed rather than lost.
        let status = try await ShellCommandPipe.page(pager, input: output)
        if status == 127 || status == 126 {
            io.out(styled: String(decoding: output, as: UTF8.self))
            io.err("wsh: warning: the pager '\(pager)' could not be run, so the text is printed without it (set pager auto, or off)\n")
        }
    }

    /// The pager command for a statement at the prompt, or nil when its output is written as it comes.
    func pagerCommand(for statement: Statement) -> (String, (rows: Int, columns: Int))? {
        guard mode == .interactive, io.stdoutIsTerminal, !io.holdsOutput, options.pager != "", actionContext == nil,
              let name = statement.commandName, Lexer.pipeable.contains(name), name != "serve",
              let size = Pager.terminalSize() else { return nil }
        return (options.pager ?? Pager.automaticCommand, size)
    }
}

extension Statement {
    /// The command word as written, when it is plain text.
    var commandName: String? {
        switch kind {
        case .call: "call"
        case .request(let request): request.command.literal
        case .vars: "vars"
        case .echo: "echo"
        case .help: "help"
        case .command(let name, _): name.literal
        default: nil
        }
    }
}
