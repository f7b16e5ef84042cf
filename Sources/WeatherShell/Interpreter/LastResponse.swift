import Targets

/// The answer of the last call, with its body parsed as JSON once, when a query first needs it.
@ShellActor
final class LastResponse {
    let response: Response
    private var parsed: Result<JSONValue, ProviderError>?

    init(_ response: Response) {
        self.response = response
    }

    func json() throws(ProviderError) -> JSONValue {
        if let parsed { return try parsed.get() }
        let result = Result { () throws(ProviderError) -> JSONValue in try response.json() }
        parsed = result
        return try result.get()
    }
}
