import Foundation

/// Moya's Endpoint: the URL, method, headers and body of one target bound to one call's arguments.
///
/// - URL: the target's `baseURL` (or `baseURL fallback` when that is empty) joined with its path, each
///   `{name}` filled and percent-encoded as one path segment, then the query: the base's own, the
///   path's own, the query parameters in declaration order (a name given or declared twice sent twice),
///   then the call's `name==value` items (a name declared in both the query and the body takes its
///   query values from these, ``ParameterBinding``), encoded as `curl --data-urlencode` does (unreserved
///   characters kept, all else `%XX`). A fragment is not sent; a Unicode host is sent in Punycode
///   (``URLAssembly``). Characters that may not appear in a URL at all (a space, non-ASCII) written
///   literally in the base or path are percent-encoded too; reserved characters and existing `%XX` escapes stay.
/// - Body: per ``RequestTask``: JSON object, url-encoded form, multipart form or raw data, with its Content-Type
///   unless a header already sets one; the call's ``CallArguments/body`` replaces it. An optional body
///   (``TargetType/bodyIsOptional``) is not sent, nor a Content-Type (its own or the target's), when the call
///   gives none of its fields.
/// - Headers: the target's, then the Content-Type of the body, then the call's (a same-named one replaces).
/// - Timeout: the target's; the provider fills in its session timeout when the target has none.
public struct Endpoint: Sendable {
    /// The request the target and arguments make, before plugins see it.
    public var request: Request

    /// Binds `arguments` to `target`. Throws at step `.endpoint` for an unknown or missing parameter or
    /// a missing or invalid URL, and at step `.encoding` for a body that cannot be built.
    public init<T: TargetType>(target: T, arguments: CallArguments, baseURL fallback: String? = nil) throws(ProviderError) {
        let binding = try ParameterBinding(target: target, arguments: arguments)
        let url = try Self.url(for: target, binding: binding, extraQuery: arguments.queryItems, fallback: fallback)
        let body: EncodedBody?
        if let given = arguments.body {
            body = EncodedBody(data: given.data, contentType: given.contentType)
        } else {
            body = try BodyEncoding.encode(target.task, optional: target.bodyIsOptional, binding: binding, targetName: target.name)
        }

        var headers = target.headers
        // An optional body left out takes its declared type with it (a `+json` type the target names).
        if body == nil, target.bodyIsOptional {
            headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        if let contentType = body?.contentType,
           headers.value(named: "Content-Type") == nil, arguments.headers.value(named: "Content-Type") == nil {
            headers.append(Header(name: "Content-Type", value: contentType))
        }
        for header in arguments.headers {
            headers.replaceOrAppend(header)
        }
        if let missing = target.requiredHeaders.first(where: { headers.value(named: $0) == nil }) {
            throw ProviderError(.missingHeader(missing), step: .endpoint, targetName: target.name)
        }
        request = Request(method: target.method, url: url, headers: headers, body: body?.data, timeout: target.timeout)
    }

    private static func url(
        for target: some TargetType, binding: ParameterBinding, extraQuery: [(name: String, value: String)], fallback: String?
    ) throws(ProviderError) -> String {
        let base = target.baseURL.isEmpty ? (fallback ?? "") : target.baseURL
        guard !base.isEmpty else {
            throw ProviderError(.missingBaseURL, step: .endpoint, targetName: target.name)
        }
        let path = PathTemplate(target.path).filled { binding.value($0).text }
        let extra = extraQuery.filter { !binding.queryOwnNames.contains($0.name) }
        let query = PercentEncoding.encodePairs(binding.queryPairs(target.task.queryParameters) + extra)
        let url = PercentEncoding.encodeIllegalURLCharacters(URLAssembly.url(base: base, path: path, query: query))
        guard hasHTTPSchemeAndHost(url) else {
            throw ProviderError(.invalidURL(url, reason: "a URL starts with http:// or https:// and a host"),
                                step: .endpoint, targetName: target.name)
        }
        if let problem = URLPort.problem(in: url) {
            throw ProviderError(.invalidURL(url, reason: problem), step: .endpoint, targetName: target.name)
        }
        return url
    }

    /// `http://` or `https://` (any case) followed by a host. The URL is parsed once, by the
    /// HTTP client; parsing it here too cost as much again on every call.
    static func hasHTTPSchemeAndHost(_ url: String) -> Bool {
        let schemeLength = url.hasASCIIPrefixIgnoringCase("https://") ? 8
            : url.hasASCIIPrefixIgnoringCase("http://") ? 7 : 0
        guard schemeLength > 0 else { return false }
        var url = url
        return url.withUTF8 { bytes in
            let hostStart = bytes.index(bytes.startIndex, offsetBy: schemeLength)
            guard hostStart < bytes.endIndex else { return false }
            let first = bytes[hostStart]
            return first != UInt8(ascii: ":") && first != UInt8(ascii: "/") && first != UInt8(ascii: "?")
                && first != UInt8(ascii: "#")
        }
    }
}
