import Targets

/// Runs the JSON parser and printers over any bytes and checks what must hold for every input.
///
/// The fuzzer (`scripts/fuzz`, `Fuzz/FuzzEntry.swift`) calls this on each input it makes, and
/// `FuzzCorpusTests` on each file of `Fuzz/corpus`, so both run the same code. A value must
/// print, and each printed form (compact, indented, coloured or not) must parse back to it.
enum JSONExercise {
    /// The rules `bytes` breaks; empty when all hold.
    static func problems(in bytes: [UInt8]) -> [String] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            let placed = error.offset >= 0 && error.offset <= bytes.count && error.line >= 1 && error.column >= 1
            return placed && !error.description.isEmpty ? [] : ["JSON error misplaced: \(error) at offset \(error.offset)"]
        }
        var problems: [String] = []
        let printed = [
            ("compact", value.compactText),
            ("pretty", value.prettyText),
            ("printer", JSONPrinter(color: false).render(value)),
        ]
        for (form, text) in printed {
            do {
                let again = try JSONValue.parse(text)
                if again != value { problems.append("the \(form) text parses to another value: \(text)") }
            } catch {
                problems.append("the \(form) text does not parse (\(error)): \(text)")
            }
        }
        if JSONPrinter(color: true).render(value).isEmpty { problems.append("the coloured printer wrote nothing") }
        return problems
    }
}
