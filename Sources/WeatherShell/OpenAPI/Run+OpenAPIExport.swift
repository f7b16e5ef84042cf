import Foundation
import OpenAPI
import Targets

extension Run {
    /// `openapi export FILE`.
    func openAPICommand(_ arguments: [Word], command: Word) throws {
        throw failure("usage: openapi export FILE.yaml|FILE.json", at: command.span)
    }
}
