extension ProviderError {
    /// A failure with a message of its own, for plugins and transports outside this module.
    public static func other(
        _ message: String, step: Step, targetName: String, response: Response? = nil
    ) -> ProviderError {
        ProviderError(.other(message), step: step, targetName: targetName, response: response)
    }

    /// The request ran out of time; `after` is the limit that applied, when known.
    public static func timeout(_ request: Request, after: Duration?, targetName: String) -> ProviderError {
        ProviderError(.timedOut(request: request.summary, after: after), step: .transport, targetName: targetName)
    }

    /// The call's task was cancelled while the request was under way.
    public static func cancelled(_ request: Request, step: Step = .transport, targetName: String) -> ProviderError {
        // With its request, so that a call stopped between attempts (a retry's wait) is in the history too.
        var error = ProviderError(.cancelled(request: request.summary), step: step, targetName: targetName)
        error.request = request
        return error
    }

    /// No connection could be made to `address` (`host:port`); `reason` as in "connection refused".
    public static func connectionFailure(address: String, reason: String, targetName: String) -> ProviderError {
        ProviderError(.connectionFailed(address: address, reason: reason), step: .transport, targetName: targetName)
    }

    /// The response's status is outside the target's validation range; the error carries the response.
    public static func unacceptableStatus(
        _ response: Response, validation: ValidationType, targetName: String
    ) -> ProviderError {
        ProviderError(.unacceptableStatus(validation), step: .validation, targetName: targetName, response: response)
    }

    /// A retry plugin gave up on a status it retries: `HTTP 503 Service Unavailable from target 'x'
    /// (after 3 attempts): "message" body: ...`. `note` says why it stopped early, if it did.
    public static func retriesExhausted(
        _ response: Response, attempts: Int, note: String? = nil, targetName: String
    ) -> ProviderError {
        ProviderError(.retriesExhausted(attempts: attempts, note: note), step: .transport, targetName: targetName,
                      response: response)
    }
}

extension Request {
    /// `GET https://host/path?query`, secrets in the URL masked: how errors name a request.
    var summary: String {
        "\(method.rawValue) \(Redaction().maskedURL(url))"
    }
}
