internal import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 and SHA-512 through OpenSSL's EVP API.
///
/// The digest is fetched once (`EVP_MD_fetch`) and cached: OpenSSL 3's `EVP_sha256()` does an
/// implicit provider fetch per call, measured ~40 % slower for small records.
public enum SHA256 {
    nonisolated(unsafe) private static let sha256: OpaquePointer = {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else { preconditionFailure("OpenSSL has no SHA256") }
        return md
    }()
    nonisolated(unsafe) private static let sha512: OpaquePointer = {
        guard let md = EVP_MD_fetch(nil, "SHA512", nil) else { preconditionFailure("OpenSSL has no SHA512") }
        return md
    }()

    /// One digest context a thread, kept for the thread's next hash: a context made and freed a hash cost two
    /// allocations and three atomic reference counts of the digest (docs/DECISIONS.md, "SHA-256 runs on one
    /// digest context a thread"). Freed when its thread ends.
    private static let contextKey: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { context in
            if let context { EVP_MD_CTX_free(OpaquePointer(context)) }
        }
        precondition(made == 0, "no thread-local key for the digest context")
        return key
    }()

    /// The calling thread's digest context.
    private static var threadContext: OpaquePointer {
        if let kept = pthread_getspecific(contextKey) { return OpaquePointer(kept) }
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("OpenSSL could not allocate a digest") }
        // Kept, or a thread would make a context a hash and never free it.
        precondition(pthread_setspecific(contextKey, UnsafeRawPointer(context)) == 0, "no thread-local digest context")
        return context
    }

    /// The SHA-256 content address of `data`.
    public static func hash(_ data: some Collection<UInt8>) -> ContentAddress {
        let hashed = data.withContiguousStorageIfAvailable { hash(prefix: nil, UnsafeRawBufferPointer($0)) }
        return hashed ?? Array(data).withUnsafeBytes { hash(prefix: nil, $0) }
    }

    /// The SHA-256 of a `prefix` byte (when given), then `first`, then `second`: the hash of their
    /// concatenation, fed to one digest in turn rather than copied into one buffer (a Merkle tree's leaf
    /// and node hashes, RFC 6962 §2.1), and written straight into the address's words.
    static func hash(
        prefix: UInt8?, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer? = nil
    ) -> ContentAddress {
        let context = threadContext
        var hashed = EVP_DigestInit_ex(context, sha256, nil) == 1
        if var prefix { hashed = hashed && EVP_DigestUpdate(context, &prefix, 1) == 1 }
        hashed = hashed && EVP_DigestUpdate(context, first.baseAddress, first.count) == 1
        if let second { hashed = hashed && EVP_DigestUpdate(context, second.baseAddress, second.count) == 1 }
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digest) { bytes in
            hashed =
                hashed && EVP_DigestFinal_ex(context, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), nil) == 1
        }
        precondition(hashed, "SHA-256 failed")
        return ContentAddress(
            words: (
                UInt64(bigEndian: digest.0), UInt64(bigEndian: digest.1), UInt64(bigEndian: digest.2),
                UInt64(bigEndian: digest.3)
            ))
    }

    /// The 64-byte SHA-512 of `data` (SSHSIG's message hash).
    public static func sha512Digest(_ data: some Collection<UInt8>) -> [UInt8] {
        digest(data, with: sha512, length: 64)
    }

    private static func digest(_ data: some Collection<UInt8>, with md: OpaquePointer, length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let hashed: Int32? = data.withContiguousStorageIfAvailable { buffer in
            out.withUnsafeMutableBufferPointer {
                EVP_Digest(buffer.baseAddress, buffer.count, $0.baseAddress, nil, md, nil)
            }
        }
        let status =
            hashed
            ?? Array(data).withUnsafeBufferPointer { buffer in
                out.withUnsafeMutableBufferPointer {
                    EVP_Digest(buffer.baseAddress, buffer.count, $0.baseAddress, nil, md, nil)
                }
            }
        precondition(status == 1, "EVP_Digest failed")
        return out
    }
}
