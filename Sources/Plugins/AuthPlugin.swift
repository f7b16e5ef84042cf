import Foundation
import Targets

/// Adds credentials to the requests of one host, or of every host (Moya's `AccessTokenPlugin`).
///
/// The header is added in `prepare`, so the logger and the retry plugin see it on every attempt (masked).
/// A request that already has the header, because the target or the call gave one, keeps its own.
///
/// Digest credentials (RFC 7616) are sent in answer to a challenge instead, in `intercept`: a 401 with
/// `WWW-Authenticate: Digest ...` is sent again once with the computed `Authorization`; later requests
/// to the same origin answer the same nonce with the next nonce count, and a `stale=true` challenge
/// is answered again. The password never leaves the hash.
public struct AuthPlugin: Plugin {
    /// What is sent.
    public enum Credential: Sendable, Equatable {
        /// `Authorization: Bearer TOKEN`.
        case bearer(String)
        /// `Authorization: Basic base64(USER:PASSWORD)`.
        case basic(user: String, password: String)
        /// Any header, such as `X-API-Key: KEY`.
        case header(name: String, value: String)
        /// `Authorization: Digest ...` in answer to a server's Digest challenge (RFC 7616: MD5,
        /// SHA-256 and their `-sess` variants; qop `auth`, `auth-int`, or none).
        case digest(user: String, password: String)
    }

    /// Which requests get the credential.
    public enum Scope: Sendable, Equatable {
        /// Requests whose URL has this host (compared without case); a leading `*.` matches any
        /// subdomain; a `:port` must match too when given.
        case host(String)
        /// Every request, whatever its host.
        case everywhere
    }

    /// What is sent.
    public var credential: Credential
    /// Where it is sent.
    public var scope: Scope
    /// The Digest challenges answered so far, shared by copies of this plugin.
    private let digestSession: DigestSession
    /// Where a note goes when a server's Digest challenge names an algorithm this client does not
    /// implement, so that the 401 is not read as a wrong password.
    private let report: OutputClosure?

    /// `auth`.
    public var name: String { "auth" }

    /// Sends `credential` to the requests in `scope`, answering Digest challenges from
    /// `digestSession`'s nonces; a challenge it cannot answer is said to `report`.
    public init(_ credential: Credential, scope: Scope, digestSession: DigestSession = DigestSession(), report: OutputClosure? = nil) {
        self.credential = credential
        self.scope = scope
        self.digestSession = digestSession
        self.report = report
    }

    /// A bearer token for `host`.
    public static func bearer(_ token: String, host: String) -> AuthPlugin {
        AuthPlugin(.bearer(token), scope: .host(host))
    }

    /// Basic authentication for `host`.
    public static func basic(user: String, password: String, host: String) -> AuthPlugin {
        AuthPlugin(.basic(user: user, password: password), scope: .host(host))
    }

    /// Digest authentication for `host`.
    public static func digest(user: String, password: String, host: String) -> AuthPlugin {
        AuthPlugin(.digest(user: user, password: password), scope: .host(host))
    }

    /// The header name and value the credential is sent as; `nil` for Digest, whose header answers
    /// each challenge.
    public var header: Header? {
        switch credential {
        case .bearer(let token):
            Header(name: "Authorization", value: "Bearer \(token)")
        case .basic(let user, let password):
            Header(name: "Authorization", value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .header(let name, let value):
            Header(name: name, value: value)
        case .digest:
            nil
        }
    }

    /// Whether a request to `url` gets the credential.
    public func applies(to url: String) -> Bool {
        guard case .host(let pattern) = scope else { return true }
        guard let authority = URLAuthority(url: url),
              let wanted = URLAuthority(url: "http://" + pattern.lowercased()) else { return false }
        if let port = wanted.port, port != authority.effectivePort { return false }
        if wanted.host.hasPrefix("*.") {
            return authority.host.hasSuffix(wanted.host.dropFirst())
        }
        return authority.host == wanted.host
    }

    /// Adds the header to a request in scope that does not have one of that name yet.
    public func prepare(_ request: Request, target: any TargetType) async throws(ProviderError) -> Request {
        guard let header, applies(to: request.url), request.header(header.name) == nil else { return request }
        var request = request
        request.setHeader(header.name, header.value)
        // A redirect to another origin drops it, whatever its name.
        request.credentialHeaderNames.append(header.name.lowercased())
        return request
    }

    /// For Digest credentials, answers the server's challenge: see ``AuthPlugin``. Other credentials pass through.
    public func intercept(
        _ request: Request, target: any TargetType, next: SendClosure
    ) async throws(ProviderError) -> Response {
        // Not on a redirect to another origin, as curl: a Digest answer lets that server guess the password offline.
        guard case .digest(let user, let password) = credential, applies(to: request.url), !request.leftFirstOrigin,
              request.header("Authorization") == nil else { return try await next(request) }
        let origin = DigestSession.origin(of: request.url)
        var sent = request
        var answered = false
        if let reused = digestSession.reuse(for: origin),
           let value = Self.digestAuthorization(reused.challenge, count: reused.count, user: user, password: password, request: request) {
            sent.setHeader("Authorization", value)
        }
        var response = try await next(sent)
        // Once in answer to a new challenge; once more when the server says only the nonce was stale.
        var resends = 0
        while response.status == 401, resends < 2,
              let challenge = DigestChallenge.preferred(inFields: response.headers(named: "WWW-Authenticate")),
              !answered || challenge.stale {
            let count = digestSession.start(challenge, for: origin)
            guard let value = Self.digestAuthorization(challenge, count: count, user: user, password: password, request: request) else {
                break
            }
            sent = request
            sent.setHeader("Authorization", value)
            answered = true
            resends += 1
            response = try await next(sent)
        }
        if response.status == 401, sent.header("Authorization") != nil { digestSession.forget(origin) }
        if response.status == 401, !answered, let report {
            let unsupported = DigestChallenge.unsupportedAlgorithms(inFields: response.headers(named: "WWW-Authenticate"))
            if !unsupported.isEmpty, DigestChallenge.preferred(inFields: response.headers(named: "WWW-Authenticate")) == nil {
                let supported = DigestAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                report("note: the server asks for Digest with algorithm \(unsupported.joined(separator: " or ")), which wsh does not implement "
                       + "(it answers \(supported)); the credentials were not sent")
            }
        }
        return response
    }

    private static func digestAuthorization(
        _ challenge: DigestChallenge, count: Int, user: String, password: String, request: Request
    ) -> String? {
        let info = DigestAuth.RequestInfo(
            method: request.method.rawValue, uri: DigestAuth.requestURI(of: request.url), body: request.body ?? Data(),
            nonceCount: count, cnonce: DigestAuth.makeCnonce())
        return DigestAuth.authorization(challenge: challenge, user: user, password: password, request: info)
    }
}
