#if canImport(Glibc)
    import Glibc
#endif

extension String {
    /// Whether the string comes before `other` in UTF-8 byte order: the order of Rust's `str`, of serde_json's
    /// map keys (reference §1.1) and of the log's paths (docs/FORMAT.md).
    ///
    /// Compared by ``utf8Compare(_:)``.
    public func utf8Precedes(_ other: String) -> Bool {
        utf8Compare(other) < 0
    }

    /// Whether the two strings are the same UTF-8 bytes: the equality of the wire, where `==` is Unicode
    /// canonical equivalence (docs/FORMAT.md, "Strings compare by bytes"). Lengths first, then one `memcmp`.
    public func hasSameBytes(as other: String) -> Bool {
        if let result = utf8.withContiguousStorageIfAvailable({ left in
            other.utf8.withContiguousStorageIfAvailable { right -> Bool in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }), let result {
            return result
        }
        return utf8.elementsEqual(other.utf8)
    }

    /// The same order, three ways: negative when this string's UTF-8 bytes come first, zero when they are
    /// the same bytes, positive when `other`'s come first (a sorted object's key search tells "found" from
    /// "after" with one comparison).
    ///
    /// The bytes are compared in place — a small string's (at most 15 bytes, kept inline) from a copy on the
    /// stack — by one `memcmp` of the common length (which compares bytes as unsigned), then by length. Only
    /// a string that keeps no UTF-8 of its own (one bridged from another representation, which Linux does
    /// not make) takes the generic path, in two passes.
    public func utf8Compare(_ other: String) -> Int {
        if let result = utf8.withContiguousStorageIfAvailable({ left in
            other.utf8.withContiguousStorageIfAvailable { right -> Int in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 ? -1 : 1 }
                }
                return left.count < right.count ? -1 : (left.count == right.count ? 0 : 1)
            }
        }), let result {
            return result
        }
        if utf8.elementsEqual(other.utf8) { return 0 }
        return utf8.lexicographicallyPrecedes(other.utf8) ? -1 : 1
    }
}
