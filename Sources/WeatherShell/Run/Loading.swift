/// What a run is inside of: a file (`wsh FILE`, `source`) or a pack (`use NAME`).
enum Loading: Equatable {
    /// A file, by its canonical path (``Run/canonicalPath(_:)``), so that two spellings of one file are one.
    case file(String)
    /// A pack, by the name it is shown under.
    case pack(String)
}
