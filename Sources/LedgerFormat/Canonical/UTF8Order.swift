extension String {
    /// Whether the string comes before `other` in UTF-8 byte order: the order of Rust's `str`, of serde_json's
    /// map keys (reference §1.1) and of the log's paths (docs/FORMAT.md).
    ///
    /// A native string's bytes are compared in place; the generic comparison of the UTF-8 views costs ~30
    /// instructions a byte, and is left for the strings that keep no contiguous UTF-8 (a small string, at
    /// most 15 bytes kept inline, among them: measured slower through `withUTF8`'s copy than through it).
    public func utf8Precedes(_ other: String) -> Bool {
        if let result = utf8.withContiguousStorageIfAvailable({ left in
            other.utf8.withContiguousStorageIfAvailable { right -> Bool in
                let common = min(left.count, right.count)
                for index in 0..<common where left[index] != right[index] { return left[index] < right[index] }
                return left.count < right.count
            }
        }), let result {
            return result
        }
        return utf8.lexicographicallyPrecedes(other.utf8)
    }
}
