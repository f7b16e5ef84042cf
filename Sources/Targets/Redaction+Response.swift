extension Redaction {
    /// The response's body as text for display, masked as ``maskedBody(_:contentType:)`` masks a body;
    /// a JSON body is read from the response's one parse (``Response/json()``) instead of parsed again.
    public func maskedBody(of response: Response) -> String {
        maskedBody(response.body, contentType: response.header("Content-Type")) {
            try? response.parsedBody.get()
        }
    }

    /// This redaction plus, as secret values, what `response` answers with as credentials
    /// (``receivedSecrets(of:)``): a login's token is then masked by value wherever that call
    /// shows it (a failed check's notes, `print`, a report), as its member is in the shown body.
    public func including(secretsOf response: Response) -> Redaction {
        let added = receivedSecrets(of: response).map(\.value).filter { $0.count >= SecretForms.minimumLength && !secretValues.contains($0) }
        // An answer can issue thousands of tokens; their base64 forms would make masking with them
        // four times as slow (docs/dev/performance.md).
        return added.isEmpty ? self : Redaction(secrets: secrets.adding(added, base64: false))
    }

    /// This redaction plus what every request of the call `response` answers sent as credentials
    /// (``sentSecrets(of:)``): each redirect hop's and the last one's. Every hop is part
    /// of the call, so a secret sent on one hop (`appid=` in a Location the server redirected to) is
    /// masked by value in every hop's URL, where an earlier hop may carry it percent-encoded in its query.
    public func including(secretsSentFor response: Response) -> Redaction {
        response.hops.reduce(including(secretsOf: response.request)) { $0.including(secretsOf: $1.request) }
    }

    /// What `response` answers with as credentials, each with its name, read as
    /// ``sentSecrets(of:)`` reads a request: the values of headers named as credentials
    /// (`X-Api-Key`, `X-Token`), of cookies a `Set-Cookie` line sets named like secrets or sessions
    /// (`token`, `sid`), and the string and number values of JSON members named as credentials
    /// (`access_token`, `password`; ``isCredentialName(_:)``), at any depth, or of XML elements so
    /// named (`<wsse:Password>`).
    public func receivedSecrets(of response: Response) -> [(name: String, value: String)] {
        var secrets = credentials(in: response.headers)
        let body = response.body
        if !body.isEmpty, !Self.namesNothingSensitiveOnceRead(body) {
            if case .success(let json) = response.parsedBody {
                secrets += Self.credentialMembers(json)
            } else if Self.looksLikeXML(body, contentType: response.header("Content-Type")) {
                secrets += credentialElements(Array(body))
            }
        }
        return secrets.filter { !$0.value.isEmpty && $0.value != Self.placeholder }
    }
}
