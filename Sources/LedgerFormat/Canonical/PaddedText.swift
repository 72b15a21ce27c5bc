extension String {
    /// The string padded with spaces to at least `width` characters (for aligned human output: `reconcile`'s
    /// table, `show`'s list of an ambiguous reference's candidates, the command line's help).
    package func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
