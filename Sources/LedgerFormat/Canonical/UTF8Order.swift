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
    /// canonical equivalence (docs/FORMAT.md, "Strings compare by bytes"). Lengths first (kept by a native
    /// string), then the storage itself (a string the state shares is one copy), then one `memcmp`.
    public func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        if let result = utf8.withContiguousStorageIfAvailable({ left in
            other.utf8.withContiguousStorageIfAvailable { right -> Bool in
                left.baseAddress == right.baseAddress || left.isEmpty
                    || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }), let result {
            return result
        }
        return utf8.elementsEqual(other.utf8)
    }

    /// Whether this string's UTF-8 bytes begin with `prefix`'s (Rust's `str::starts_with`; `hasPrefix`
    /// compares characters, so `"onym:component:\u{301}x"` would not begin with `"onym:component:"`).
    public func hasBytePrefix(_ prefix: String) -> Bool {
        guard utf8.count >= prefix.utf8.count else { return false }
        if let result = utf8.withContiguousStorageIfAvailable({ text in
            prefix.utf8.withContiguousStorageIfAvailable { start -> Bool in
                start.isEmpty || memcmp(text.baseAddress!, start.baseAddress!, start.count) == 0
            }
        }), let result {
            return result
        }
        return utf8.starts(with: prefix.utf8)
    }

    /// The same order, three ways: negative when this string's UTF-8 bytes come first, zero when they are
    /// the same bytes, positive when `other`'s come first (a sorted object's key search tells "found" from
    /// "after" with one comparison).
    ///
    /// The bytes are compared in place — a small string's (at most 15 bytes, kept inline) from a copy on the
    /// stack — in one pass, rather than through the generic comparison of the UTF-8 views, ~30 instructions a
    /// byte; not by `memcmp`, whose call costs more than the few bytes a key search compares before two keys
    /// differ. Only a string that keeps no UTF-8 of its own (one bridged from another representation, which
    /// Linux does not make) takes the generic path, in two passes.
    public func utf8Compare(_ other: String) -> Int {
        if let result = utf8.withContiguousStorageIfAvailable({ left in
            other.utf8.withContiguousStorageIfAvailable { right -> Int in
                let common = min(left.count, right.count)
                for index in 0..<common where left[index] != right[index] {
                    return left[index] < right[index] ? -1 : 1
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

extension Optional where Wrapped == String {
    /// Both absent, or both present with the same UTF-8 bytes (`String.hasSameBytes(as:)`).
    public func hasSameBytes(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let left?, let right?): left.hasSameBytes(as: right)
        default: false
        }
    }
}
