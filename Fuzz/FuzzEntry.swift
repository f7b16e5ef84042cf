import Checks

/// libFuzzer's entry point, built by `scripts/fuzz` together with the language front end, the
/// JSON parser and printers, and the Checks module (not by SwiftPM). Each input goes to every
/// exercise, as in `FuzzCorpusTests`; a broken rule stops the fuzzer like a crash, with the rule
/// as the message.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let text = String(decoding: bytes, as: UTF8.self)
    let problems = FrontEndExercise.problems(in: text) + JSONExercise.problems(in: bytes) + ChecksExercise.problems(in: text)
    if !problems.isEmpty {
        fatalError(problems.joined(separator: "\n"))
    }
    return 0
}
