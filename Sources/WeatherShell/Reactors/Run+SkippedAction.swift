extension Run {
    /// An action refused by its `unless` guard: a note on stderr, and for `wsh test` a warning
    /// under the file's line and in its reports, since checks after it would pass or fail on the
    /// answer of a call before it. The warning says only what happened, which holds whether or not
    /// a call or a check comes around it.
    func noteSkipped(_ action: String, field: String, at span: SourceSpan?) {
        io.err("\(action): skipped while \(field) is true\n")
        guard let reporter else { return }
        let place = span.map { span in
            let (line, column) = currentFile.location(of: span.start)
            return "\(currentFile.name):\(line):\(column): "
        } ?? ""
        reporter.report(.warning(mask("\(place)'\(action)' was skipped while \(field) is true: none of its statements ran")))
    }
}
