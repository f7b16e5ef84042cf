import Targets

/// What a run shares with the runs it starts (a reactor action's, a piped statement's): one value
/// they all point to, so that an action's call is its sender's last call, and its failure the
/// sender's first failure when the sender had none. A started run is awaited by the run that
/// started it, so no two of them change it at once.
@ShellActor
final class Outcomes {
    /// The answer of the last call.
    var lastResponse: Response?
    /// Why the last call got no response (masked), when it got none.
    var lastCallGotNoResponse: String?
    /// The target and arguments of the last call that sent something.
    var lastCall: (target: Target, arguments: CallArguments)?
    /// The first failure; set once.
    var firstFailure: FailureKind?
    /// How many failures were reported, for a statement to tell whether its own failed.
    var failures = 0
    /// At the prompt, the action whose `exit` ended the entry (`'a go' (ex.wsh:3:45)`): the prompt
    /// stays and says so (``PromptLoop``); nil when no action's `exit` did.
    var exitedAction: String?
}
