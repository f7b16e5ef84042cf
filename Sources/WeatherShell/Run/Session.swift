import CallHistory
import Foundation
import MockServer
import Targets

/// What a user has built up and `save` would write: variables, settings, targets, plugins,
/// reactors and the HTTP transport. Runs (``Run``) execute statements over a session; several
/// runs may share one, each with its own file, output, last response and reporter.
@ShellActor
public final class Session {
    var variables = Variables()
    /// Variables given as script arguments: like make's command-line variables, a `let` of
    /// the same name in the script leaves them as given, so a script can hold defaults.
    var commandLineNames: Set<String> = []
    /// The environment `set env NAME` (`--env NAME`) chose, and what it set.
    var environment: SelectedEnvironment?
    /// The directory of the `.http` file or Postman collection last used (`use http`, `use
    /// postman`): its environment files are the ones its requests are written for.
    var requestsFileDirectory: String?
    /// The targets each `use postman` or `import har` declared, by its source and prefix: loaded
    /// again, the file's targets it no longer declares are forgotten.
    var importedTargets: [String: Set<String>] = [:]
    /// The file variables of each `use http` file, set again by `set env`.
    var httpFileVariables: [HTTPFileVariables] = []
    /// Whether the note that an `env` value is masked in URLs has been given (once a session).
    var notedSecretInURL = false
    var mask = SecretMask() {
        didSet {
            sharedMask.value = mask
            builtPlugins = nil
            callSecrets = nil
        }
    }
    /// The request of the last call (its last attempt): what it sent as credentials (`appid=...`,
    /// `X-API-Key:`) is masked by value in what shows that call, should the server echo it back
    /// into a body an error, `$error` or a report shows; until the next call.
    var lastSentRequest: Request? {
        didSet { callSecrets = nil }
    }
    /// The answer to the last call: what it answers with as credentials (a login's `access_token`,
    /// an `X-Api-Key` header) is masked by value, as its body's member is in a report, in what
    /// shows that call (a failed check's notes, `print`, a report); until the next call.
    var lastReceivedResponse: Response? {
        didSet { callSecrets = nil }
    }
    /// The sample files `set record` wrote in this session: one that is not among them is kept
    /// aside before a recording replaces it (a fixture written by hand).
    var recordedFiles: Set<String> = []
    /// What the proxy of the last call sent as credentials (``proxyCredentials`` when it was sent):
    /// the transport adds its Proxy-Authorization, which no request shows, so an answer echoing it
    /// is masked by these, also once `set proxy` has changed; until the next call.
    var lastProxyCredentials: [String] = [] {
        didSet { callSecrets = nil }
    }
    /// ``mask``'s secrets and those of ``lastSentRequest``, made when first asked for.
    private var callSecrets: SecretSet?

    /// The secrets masked now: the session's, and the last call's credentials.
    var secretsNow: SecretSet {
        get {
            if let callSecrets { return callSecrets }
            let made = withLastCallsCredentials(mask.secrets)
            callSecrets = made
            return made
        }
    }
    /// ``secretsNow`` but for the values filters made from secrets (``SecretMask/addDerived(_:)``).
    var sourceSecretsNow: SecretSet {
        withLastCallsCredentials(mask.sources)
    }

    /// `secrets` and the credentials ``lastSentRequest`` sent (and each redirect hop before it) and
    /// ``lastReceivedResponse`` answered with.
    private func withLastCallsCredentials(_ secrets: SecretSet) -> SecretSet {
        var redaction = Redaction(secrets: secrets.adding(lastProxyCredentials))
        if let lastSentRequest { redaction = redaction.including(secretsOf: lastSentRequest) }
        if let lastReceivedResponse {
            // What each redirect hop sent too: `redirects` and `hops` show every hop's URL.
            redaction = redaction.including(secretsSentFor: lastReceivedResponse).including(secretsOf: lastReceivedResponse)
        }
        return redaction.secrets
    }
    /// What the proxy the settings choose now sends as credentials (`set proxy http://user:pass@...`,
    /// `HTTP_PROXY`'s). Not in ``mask``: `save` judges a typed proxy password by the line it is typed in.
    var proxyCredentials: [String] { options.transport.proxyCredentials() }
    /// The mask for reactor stores, which echo state from their own executors.
    let sharedMask = SharedValue(SecretMask())
    var options: ShellOptions
    /// Where each option set in this session was last set (`--stub`, `init.wsh:3`, `prompt`); absent: default.
    var optionOrigins: [ShellOption: String] = [:]
    /// Declared targets.
    var targets = TargetRegistry()
    /// What completion derives from the targets, kept until they change.
    var completionTargets: CompletionTargetView?
    /// Reactors by command name, and the order they were first used or declared.
    var reactors: [String: ShellReactor] = [:]
    var reactorOrder: [String] = []
    /// The declared reactors' action arguments given for parameters named like credentials: the
    /// line history hides them as it hides `let token = "..."` (``LiteralCredentials``).
    let credentialArguments = SharedValue(LiteralCredentials.ActionCredentials())
    /// How reactors echo state; shared with their stores.
    let echoStyle: SharedValue<EchoStyle>
    /// Which plugins are on, their settings and order (`plugin`, `plugins`).
    var pluginSettings = PluginSettings() {
        didSet { builtPlugins = nil }
    }
    /// The plugins `pluginSettings` and `mask` make, built on the first call after either changes.
    var builtPlugins: [any Plugin]?
    /// Whether calls are retried (`plugin retry`, a target's `retry N`): off for `wsh load`'s
    /// users, whose every attempt must be a call the stats count.
    var retries = true {
        didSet { builtPlugins = nil }
    }
    /// Sends the session's calls: unless given, the shell's event loop's transport, so one
    /// connection pool serves every run. Made on the first call: `wsh -c 'exit'` makes no HTTP client.
    /// The mock server answering this session's targets (`serve start`), while it runs.
    var server: MockServer?
    /// How the mock server was started.
    var serveSettings: ServeSettings?
    /// The mock server's request lines at the prompt, until `serve log` shows them.
    var serveLog: ServeLog?
    /// What the served routes were last made from.
    var servedSignature: ServedSignature?
    private(set) lazy var transport: any Transport = SessionEventLoop.transport
    /// While set, every call of the session passes it first: the rules of `wsh fuzz` (and `wsh
    /// serve`) for the calls of the files they run before they start, whatever `set proxy` or
    /// the TLS settings make of ``transport``.
    var callGuard: AllowedHostsTransport?
    /// Whether a transport was given to the session (a test's): `set proxy` and the TLS settings leave it.
    private var transportIsGiven = false
    /// Whether `set insecure on` has warned in this session.
    var warnedInsecure = false
    /// The session's cookies (`cookies`), sent and kept by every call while `set cookies` is on.
    let cookieJar = CookieJar()
    /// Where calls are recorded (`history`); the shell gives one to the session it runs, so a
    /// session made by a library user or a test records nothing unless given one.
    var callLog: CallLog?

    /// A session with default settings; `bail` and color follow how it is used.
    public init(bail: Bool, color: Bool, transport: (any Transport)? = nil) {
        options = ShellOptions(bail: bail, colorEnabled: color)
        echoStyle = SharedValue(EchoStyle(mode: .line, color: color))
        if let transport {
            self.transport = transport
            transportIsGiven = true
        }
    }

    /// Sends the session's calls with a client made for `settings`; the default settings use the
    /// shell's one transport, whose connections other sessions share.
    func useTransport(_ settings: TransportSettings) {
        guard !transportIsGiven else { return }
        transport = settings == TransportSettings()
            ? SessionEventLoop.transport
            : NetworkTransport(settings: settings, eventLoopGroup: SessionEventLoop.shared)
    }

    /// Sets a variable from a script argument; a secret one (`--secret NAME=VALUE`) is masked
    /// wherever it shows from now on, as an `env` value is.
    func define(_ argument: ScriptArgument, secret: Bool = false) {
        var variable = Variable(typed: argument.value)
        if secret {
            variable.isSecret = true
            mask.add(variable.value)
        }
        variables[argument.name] = variable
        commandLineNames.insert(argument.name)
    }
}
