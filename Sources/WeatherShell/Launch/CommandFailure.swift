/// Why a command (`wsh test`, `wsh load`) could not run, in the user's terms.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
