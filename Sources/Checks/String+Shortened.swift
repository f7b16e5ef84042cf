extension String {
    /// The text cut to `limit` characters with an ellipsis, for quoting user input in messages.
    public func shortened(_ limit: Int = 60) -> String {
        count <= limit ? self : prefix(limit) + "…"
    }
}
