public import LedgerFormat
import LedgerStore

/// Loads the vendor's commit-signing key from an OpenSSH ed25519 private-key file, so a vendor
/// can sign with the key git already uses (docs/FORMAT.md, "Commits").
public enum SigningKey {
    public static func load(_ path: String) throws(AppendError) -> Ed25519.PrivateKey {
        guard let text = try? String(contentsOfFileAtPath: path) else {
            throw AppendError(source: path, rule: "signingKey.unreadable", reason: "cannot read the signing key file")
        }
        do {
            return try OpenSSHKey.parsePrivateKey(text)
        } catch {
            throw AppendError(source: path, rule: "signingKey.invalid", reason: error.reason)
        }
    }
}

extension String {
    /// Reads a whole file as UTF-8 without Foundation.
    public init(contentsOfFileAtPath path: String) throws {
        guard let file = fopen(path, "rb") else { throw FileReadError() }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count > 0 { bytes += chunk[0..<count] }
            if count < chunk.count { break }
        }
        guard ferror(file) == 0 else { throw FileReadError() }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

struct FileReadError: Error {}

#if canImport(Glibc)
    import Glibc
#endif
