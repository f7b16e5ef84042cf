import Foundation
import Targets

/// One line of `history`: a call as listed.
public struct CallSummary: Sendable, Equatable {
    /// The call's number, which `history show` and `history replay` take; never reused.
    public var id: Int64
    public var time: Date
    public var target: String
    public var method: String
    /// The URL as first sent, secrets masked.
    public var url: String
    /// nil when no answer came.
    public var status: Int?
    public var elapsedMilliseconds: Double
    /// The answer came from a sample.
    public var stubbed: Bool
    /// Why the call failed, masked; nil when it succeeded.
    public var failure: String?
}

/// A call as the history keeps it, for `history show` and `history replay`: every secret masked.
public struct StoredCall: Sendable {
    public var summary: CallSummary
    /// The answer's reason phrase.
    public var reason: String?
    /// Where redirects led, when they did.
    public var finalURL: String?
    /// The call's arguments as `name=value`, `name:=json` and `Name:value`, secret values as `***`.
    public var arguments: [String]
    /// The names of the arguments whose values are masked: a replay must give them again.
    public var maskedArguments: [String]
    /// What of the request the history does not hold as sent: `query appid`, `header
    /// Authorization`, `body`, `URL`; and `session header Cookie` for each header the session
    /// added (``CallEntry/sessionHeaders``). ``withheldFromCall`` is what a replay cannot rebuild.
    public var withheld: [String]
    public var requestHeaders: [Header]
    /// The request's body, masked, at most 1 MB.
    public var requestBody: Data?
    /// nil when no answer came.
    public var responseHeaders: [Header]?
    /// The whole answer's size (masked); ``body`` holds at most 1 MB of it.
    public var bodySize: Int?
    public var body: Data?

    /// What ``withheld`` says of a header the session added rather than the call.
    static let sessionHeaderMark = "session header "

    /// The names, lowercased, of the headers the session added rather than the call: the cookie
    /// jar's Cookie, an auth plugin's header (``CallEntry/sessionHeaders``).
    public var sessionHeaders: Set<String> {
        Set(withheld.compactMap { $0.hasPrefix(Self.sessionHeaderMark) ? $0.dropFirst(Self.sessionHeaderMark.count).lowercased() : nil })
    }

    /// ``withheld`` but for the session's headers: the parts of the request the call itself gave
    /// that the history masked, which a replay without its target cannot send again.
    public var withheldFromCall: [String] {
        let session = sessionHeaders
        return withheld.filter { part in
            !part.hasPrefix(Self.sessionHeaderMark) && !(part.hasPrefix("header ") && session.contains(part.dropFirst(7).lowercased()))
        }
    }
}

/// Headers in one column: `Name: value` lines.
enum HeaderText {
    static func decode(_ text: String) -> [Header] {
        text.split(separator: "\n").map { line in
            guard let colon = line.firstIndex(of: ":") else { return Header(name: String(line), value: "") }
            let value = line[line.index(after: colon)...]
            return Header(name: String(line[..<colon]), value: String(value.hasPrefix(" ") ? value.dropFirst() : value))
        }
    }
}
