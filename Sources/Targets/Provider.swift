/// Sends targets of type `T` (Moya's `MoyaProvider`). A value: the shell makes a new one when its
/// plugins or stubbing change, so calls already under way keep the settings they started with.
public struct Provider<T: TargetType>: Sendable {
    /// Plugins, in the order their hooks run (see ``Plugin`` for the whole order).
    public var plugins: [any Plugin]
    /// Whether to answer from sample data instead of the transport.
    public var stubBehavior: StubBehavior
    /// When stubbing, the status of the sample to answer with (`set stub immediate status 404`);
    /// `nil` answers each target's default sample.
    public var stubStatus: Int?
    /// The timeout of a target that declares none (`set timeout`); `nil` for none.
    public var sessionTimeout: Duration?
    /// The base URL of a target that declares none (`set base`).
    public var baseURL: String?
    /// What sends requests when not stubbing.
    public var transport: any Transport
    /// How many redirects a call follows when its target does not say (``TargetType/redirectLimit``);
    /// 0 returns a redirect as the answer (`set follow`).
    public var redirectLimit = 10
    /// Whether a redirect to another origin keeps the request's credentials (curl's
    /// `--location-trusted`, `set follow trusted`); by default they are dropped there.
    public var redirectsKeepCredentials = false
    /// Headers every request starts with, before the target's, unless the target or the call gives
    /// one of the same name (the shell's `User-Agent: wsh/VERSION` and `Accept: */*`).
    public var defaultHeaders: [Header] = []
    /// Whether requests ask for compressed answers (`Accept-Encoding: gzip, deflate, br`, unless the
    /// request has an Accept-Encoding of its own) and answers are decoded (`set compress`).
    public var compress = true
    /// The largest answer body, decoded, in bytes; `nil` leaves it to the transport (`set max-body`).
    public var bodyLimit: Int?
    /// The session's cookies: sent with every hop they match, and given every `Set-Cookie` of every
    /// hop; `nil` sends and keeps none (`set cookies off`).
    public var cookieJar: CookieJar?

    /// Makes a provider; by default it sends over the process's one ``NetworkTransport``.
    public init(
        transport: any Transport = NetworkTransport.shared, plugins: [any Plugin] = [],
        stubBehavior: StubBehavior = .never, stubStatus: Int? = nil, sessionTimeout: Duration? = nil,
        baseURL: String? = nil
    ) {
        self.stubStatus = stubStatus
        self.transport = transport
        self.plugins = plugins
        self.stubBehavior = stubBehavior
        self.sessionTimeout = sessionTimeout
        self.baseURL = baseURL
    }

    /// Calls `target` with `arguments`, in this order:
    /// 1. ``Endpoint`` binds the arguments (the target's timeout, else `sessionTimeout`, applies);
    /// 2. each plugin's `prepare`, in list order;
    /// 3. the `intercept` chain, first plugin outermost; its innermost step, run once per attempt, is:
    ///    every plugin's `willSend`, then the transport (a ``StubTransport`` when `stubBehavior` is not
    ///    `.never`), then every plugin's `didReceive` with the response or the transport's error (whose
    ///    ``ProviderError/request`` is the request of that attempt); a redirect goes through the
    ///    whole chain again for each hop (``Redirect``), up to the target's or ``redirectLimit`` hops;
    /// 4. validation against the target's `validationType`: a status outside it becomes an error at
    ///    step `.validation` that carries the response;
    /// 5. each plugin's `process`, in list order; then the result is returned or thrown.
    ///
    /// With `bodyFile`, the final answer's body is written to that file as it arrives (no limit, bounded
    /// memory) and the response's ``Response/streamedBodyBytes`` says how much; a stub's is kept in ``Response/body``.
    /// With `sink`, the final answer's body goes to the sink as it arrives when the sink takes it
    /// (``ResponseBodySink``); a stub's never does.
    public func request(
        _ target: T, arguments: CallArguments = CallArguments(), writingBodyTo bodyFile: String? = nil,
        streamingBodyTo sink: (any ResponseBodySink)? = nil
    ) async throws(ProviderError) -> Response {
        // Boxed once for every hook: passing `target` to each would copy it into a new box each time.
        let boxed: any TargetType = target
        var request = try await preparedRequest(target, boxed: boxed, arguments: arguments)
        request.responseBodyFile = bodyFile
        request.responseBodySink = sink
        let target = boxed

        let transport: any Transport = stubBehavior == .never ? transport : StubTransport(behavior: stubBehavior, status: stubStatus)
        // A stub answers every hop with the same sample: its redirect is the answer.
        let redirectLimit = stubBehavior == .never ? target.redirectLimit ?? redirectLimit : 0
        var result: Result<Response, ProviderError>
        do throws(ProviderError) {
            result = .success(try await following(request, limit: redirectLimit, target: target, transport: transport))
        } catch {
            result = .failure(error)
        }
        if case .success(let response) = result, !target.validationType.accepts(response.status) {
            result = .failure(.unacceptableStatus(response, validation: target.validationType, targetName: target.name))
        }
        for plugin in plugins {
            result = await plugin.process(result, target: target)
        }
        return try result.get()
    }

    /// The request a call of `target` with `arguments` sends: steps 1 and 2 of ``request(_:arguments:)``,
    /// for showing it (`show NAME --curl`) without sending it.
    public func preparedRequest(_ target: T, arguments: CallArguments = CallArguments()) async throws(ProviderError) -> Request {
        try await preparedRequest(target, boxed: target, arguments: arguments)
    }

    private func preparedRequest(_ target: T, boxed: any TargetType, arguments: CallArguments) async throws(ProviderError) -> Request {
        var request = try Endpoint(target: target, arguments: arguments, baseURL: baseURL).request
        if request.timeout == nil {
            request.timeout = sessionTimeout
        }
        // Credentials in the URL are Basic authentication, as curl sends them; the URL sent has none.
        if request.url.containsByte(UInt8(ascii: "@")), let (url, authorization) = URLCredentials.split(request.url) {
            request.url = url
            if request.header("Authorization") == nil { request.headers.append(Header(name: "Authorization", value: authorization)) }
        }
        request.bodyLimit = bodyLimit
        request.decodesContent = compress
        addDefaultHeaders(to: &request)
        for plugin in plugins {
            request = try await plugin.prepare(request, target: boxed)
        }
        return request
    }

    /// ``defaultHeaders`` and, when compressing, Accept-Encoding, first and in that order, each unless
    /// the request has a header of that name.
    private func addDefaultHeaders(to request: inout Request) {
        var added: [Header] = []
        for header in defaultHeaders where request.header(header.name) == nil {
            added.append(header)
        }
        if compress, request.header("Accept-Encoding") == nil {
            added.append(Header(name: "Accept-Encoding", value: ContentDecoding.acceptedCodings))
        }
        if !added.isEmpty {
            request.headers.insert(contentsOf: added, at: 0)
        }
    }

    /// Sends `request` and, while the answer is a redirect with a Location and fewer than `limit`
    /// redirects were followed, the request ``Redirect`` makes of it: every hop through the plugins'
    /// `intercept`, `willSend` and `didReceive`, so the logger shows each and retries apply per hop.
    /// The answer keeps every redirect in ``Response/hops`` and the time from the first hop on.
    private func following(
        _ request: Request, limit: Int, target: any TargetType, transport: any Transport
    ) async throws(ProviderError) -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        var current = request
        current.followsRedirects = limit > 0
        var response = try await sendHop(current, target: target, transport: transport)
        guard limit > 0 else { return response }
        var hops: [ResponseHop] = []
        var latency = response.latency
        while Redirect.isRedirect(response.status), let location = response.header("Location"), !location.isEmpty {
            guard hops.count < limit else {
                throw ProviderError(.tooManyRedirects(request: request.summary, limit: limit), step: .transport, targetName: target.name)
            }
            hops.append(ResponseHop(request: response.request, status: response.status, reason: response.reason, headers: response.headers))
            // Made from the request before the jar's cookies: the next hop gets those its URL matches.
            current = try Redirect.nextRequest(after: current, first: request, status: response.status, location: location,
                                               targetName: target.name, trusted: redirectsKeepCredentials)
            current.followsRedirects = hops.count < limit
            do {
                response = try await sendHop(current, target: target, transport: transport)
            } catch {
                var error = error
                error.redirect = (hops[hops.count - 1].status, Redaction().maskedURL(current.url))
                throw error
            }
            latency = latency.flatMap { sum in response.latency.map { sum + $0 } }
        }
        if !hops.isEmpty {
            response.hops = hops
            response.elapsed = start.duration(to: clock.now)
            response.latency = latency
        }
        return response
    }

    /// One hop: the jar's cookies for its URL added (after any Cookie the request has), sent through
    /// the plugins, the answer's `Set-Cookie`s kept.
    private func sendHop(_ request: Request, target: any TargetType, transport: any Transport) async throws(ProviderError) -> Response {
        guard let cookieJar else { return try await send(request, from: 0, target: target, transport: transport) }
        var sent = request
        if let cookies = cookieJar.cookieHeader(for: request.url) {
            sent.setHeader("Cookie", request.header("Cookie").map { $0 + "; " + cookies } ?? cookies)
        }
        let response = try await send(sent, from: 0, target: target, transport: transport)
        cookieJar.store(setCookie: response.headers(named: "Set-Cookie"), from: response.request.url)
        return response
    }

    /// The send wrapped in the `intercept` of the plugins from `index` on, that plugin outermost.
    private func send(
        _ request: Request, from index: Int, target: any TargetType, transport: any Transport
    ) async throws(ProviderError) -> Response {
        guard plugins.indices.contains(index) else {
            return try await attempt(request, target: target, transport: transport)
        }
        let next: SendClosure = { (request: Request) async throws(ProviderError) -> Response in
            try await send(request, from: index + 1, target: target, transport: transport)
        }
        return try await plugins[index].intercept(request, target: target, next: next)
    }

    /// One attempt: every plugin's `willSend`, the transport, every plugin's `didReceive`.
    private func attempt(
        _ request: Request, target: any TargetType, transport: any Transport
    ) async throws(ProviderError) -> Response {
        for plugin in plugins {
            await plugin.willSend(request, target: target)
        }
        let result: Result<Response, ProviderError>
        do throws(ProviderError) {
            result = .success(try await transport.send(request, for: target))
        } catch {
            var error = error
            error.request = error.request ?? request
            result = .failure(error)
        }
        for plugin in plugins {
            await plugin.didReceive(result, target: target)
        }
        return try result.get()
    }
}
