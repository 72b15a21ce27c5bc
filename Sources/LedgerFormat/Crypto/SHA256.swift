internal import COpenSSL

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

    /// The SHA-256 content address of `data`.
    public static func hash(_ data: some Collection<UInt8>) -> ContentAddress {
        ContentAddress(bytes: digest(data, with: sha256, length: 32))
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
