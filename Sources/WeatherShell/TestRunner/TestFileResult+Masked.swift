import Foundation
import Targets

extension TestFileResult {
    /// Masks every text of the result once more with `redaction`'s secrets, also where JSON
    /// escapes hide one (``Targets/Redaction/maskedDecodingJSON(_:)``): the calls' URLs, headers,
    /// failures and bodies, the checks, errors, warnings and the first failure. Not the excerpts nor
    /// an error's rendered text: the recorder cuts those again from their source. A kept binary
    /// body that spells a secret out is dropped, as it would not have been kept.
    mutating func mask(with redaction: Redaction) {
        let mask = redaction.maskedDecodingJSON
        for index in calls.indices { calls[index].mask(with: redaction) }
        for index in checks.indices {
            checks[index].source = mask(checks[index].source)
            checks[index].message = checks[index].message.map(mask)
            checks[index].notes = checks[index].notes.map(mask)
        }
        for index in errors.indices {
            errors[index].message = mask(errors[index].message)
            errors[index].notes = errors[index].notes.map(mask)
        }
        warnings = warnings.map(mask)
        if var first = firstFailure {
            first.message = mask(first.message)
            first.notes = first.notes.map(mask)
            firstFailure = first
        }
    }
}

extension TestCallRecord {
    /// Masks the call's texts once more with `redaction`'s secrets, as ``TestFileResult/mask(with:)`` says.
    mutating func mask(with redaction: Redaction) {
        let mask = redaction.maskedDecodingJSON
        url = url.map(redaction.maskedURL)
        finalUrl = finalUrl.map(redaction.maskedURL)
        redirects = redirects?.map { hop in
            TestRedirect(method: hop.method, url: redaction.maskedURL(hop.url), status: hop.status, location: hop.location.map(redaction.maskedURL))
        }
        failure = failure.map(mask)
        requestHeaders = requestHeaders.map { TestHeader(name: $0.name, value: redaction.mask($0.value)) }
        responseHeaders = responseHeaders.map { TestHeader(name: $0.name, value: redaction.mask($0.value)) }
        body = body.map(mask)
        requestBody = requestBody.map(mask)
        if let kept = bodyBase64.flatMap({ Data(base64Encoded: $0) }), redaction.secrets.mask(kept) != kept {
            bodyBase64 = nil
        }
    }
}
