import Targets

/// The document's security schemes as notes saying how wsh sends each credential.
enum SecurityNotes {
    static func notes(_ root: JSONValue) -> [String] {
        guard case .object(let schemes)? = root["components"]?["securitySchemes"] else { return [] }
        return schemes.compactMap { scheme in
            let value = scheme.value
            let how: String
            switch (value["type"]?.string?.lowercased(), value["scheme"]?.string?.lowercased()) {
            case ("http", "bearer"?): how = "bearer auth: plugin auth bearer $token"
            case ("http", "basic"?): how = "basic auth: plugin auth basic $user:$password"
            case ("http", "digest"?): how = "digest auth: plugin auth digest $user:$password"
            case ("apikey", _):
                let name = value["name"]?.string ?? "KEY"
                switch value["in"]?.string {
                case "header": how = "an API key in the header \(name): plugin auth header \(name):$key"
                case "query": how = "an API key in the query: give \(name)==$key with each call"
                case "cookie": how = "an API key in the cookie \(name): give Cookie:\(name)=$key with each call"
                default: how = "an API key named \(name)"
                }
            case ("oauth2", _), ("openidconnect", _): how = "OAuth 2: get a token elsewhere, then plugin auth bearer $token"
            case ("mutualtls", _): how = "client certificates: set cert FILE key FILE"
            default: return nil
            }
            return "this API uses \(how) (security scheme '\(scheme.key)')"
        }
    }
}
