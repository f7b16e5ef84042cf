extension Run {
    /// An action refused by its `unless` guard: a note on stderr, and for `wsh test` a warning
    /// under the file's line and in its reports, since the checks after it read the answer of the
    /// call before it (the skipped action made none).
    func noteSkipped(_ action: String, field: String, at span: SourceSpan?) {
        io.err("\(action): skipped while \(field) is true\n")
        guard let reporter else { return }
        let place = span.map { span in
            let (line, column) = currentFile.location(of: span.start)
            return "\(currentFile.name):\(line):\(column): "
        } ?? ""
        reporter.report(.warning(mask("\(place)'\(action)' was skipped while \(field) is true: it made no call, "
                                      + "and the checks after it read the answer before it")))
    }
}
