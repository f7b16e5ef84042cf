import Foundation
import Targets

/// Adds credentials to the requests of one host, or of every host (Moya's `AccessTokenPlugin`).
///
/// The header is added in `prepare`, so the logger and the retry plugin see it on every attempt (masked).
/// A request that already has the header, because the target or the call gave one, keeps its own.
public struct AuthPlugin: Plugin {
    /// What is sent.
    public enum Credential: Sendable, Equatable {
        /// `Authorization: Bearer TOKEN`.
        case bearer(String)
        /// `Authorization: Basic base64(USER:PASSWORD)`.
        case basic(user: String, password: String)
        /// Any header, such as `X-API-Key: KEY`.
        case header(name: String, value: String)
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

    /// `auth`.
    public var name: String { "auth" }

    /// Sends `credential` to the requests in `scope`.
    public init(_ credential: Credential, scope: Scope) {
        self.credential = credential
        self.scope = scope
    }

    /// A bearer token for `host`.
    public static func bearer(_ token: String, host: String) -> AuthPlugin {
        AuthPlugin(.bearer(token), scope: .host(host))
    }

    /// Basic authentication for `host`.
    public static func basic(user: String, password: String, host: String) -> AuthPlugin {
        AuthPlugin(.basic(user: user, password: password), scope: .host(host))
    }

    /// The header name and value the credential is sent as.
    public var header: Header {
        switch credential {
        case .bearer(let token):
            Header(name: "Authorization", value: "Bearer \(token)")
        case .basic(let user, let password):
            Header(name: "Authorization", value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .header(let name, let value):
            Header(name: name, value: value)
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
        let header = header
        guard applies(to: request.url), request.header(header.name) == nil else { return request }
        var request = request
        request.setHeader(header.name, header.value)
        // A redirect to another origin drops it, whatever its name.
        request.credentialHeaderNames.append(header.name.lowercased())
        return request
    }
}
