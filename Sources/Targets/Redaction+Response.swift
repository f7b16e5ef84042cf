extension Redaction {
    /// The response's body as text for display, masked as ``maskedBody(_:contentType:)`` masks a body;
    /// a JSON body is read from the response's one parse (``Response/json()``) instead of parsed again.
    public func maskedBody(of response: Response) -> String {
        maskedBody(response.body, contentType: response.header("Content-Type")) {
            try? response.parsedBody.get()
        }
    }
}
