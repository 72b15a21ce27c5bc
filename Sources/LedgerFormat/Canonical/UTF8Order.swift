extension String {
    /// Whether the string comes before `other` in UTF-8 byte order: the order of Rust's `str`, of serde_json's
    /// map keys (reference §1.1) and of the log's paths (docs/FORMAT.md).
    ///
    /// The bytes are compared in place — a small string's (at most 15 bytes, kept inline) from a copy on the
    /// stack — rather than through the generic comparison of the UTF-8 views, ~30 instructions a byte; only
    /// a string that keeps no UTF-8 of its own (one bridged from another representation) takes that.
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
