#if canImport(Glibc)
    import Glibc
#endif

/// Reads `count` bytes of `descriptor` at `offset` into `buffer` with `pread`, retrying short and
/// interrupted reads: how many were read (fewer only at the file's end), nil on an error.
func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int? {
    var done = 0
    while done < count {
        let read = pread(descriptor, buffer + done, count - done, off_t(offset + done))
        if read < 0 && errno == EINTR { continue }
        guard read >= 0 else { return nil }
        if read == 0 { break }
        done += read
    }
    return done
}
