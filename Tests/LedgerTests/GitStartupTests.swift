import CGitStartup
import CLibgit2
import Foundation
import Testing

@testable import LedgerStore

/// libgit2 starts without parsing the system's certificate bundle (no command opens a remote), and a
/// certificate file given to libgit2 afterwards still reaches mbedTLS: the executable's stand-in refuses the
/// parse only while start-up skips it.
@Suite("libgit2 start-up")
struct GitStartupTests {
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"
    /// Where the stand-in acts: a libgit2 on mbedTLS (Debian's), and the bundle it parses at start-up.
    static let onMbedTLS =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mbedtls_x509_crt_init") != nil
        && FileManager.default.isReadableFile(atPath: bundle)

    @Test(.enabled(if: onMbedTLS, "libgit2 on mbedTLS and the system's certificate bundle"))
    func theCertificateBundleIsRefusedOnlyWhileStartUpSkipsIt() throws {
        GitLibrary.ensureInitialized()
        // Start-up asked for the bundle once and was refused, whichever test started libgit2.
        #expect(CGitStartup_refusals() >= 1)
        defer { git_error_clear() }
        CGitStartup_skipDefaultCertificates(1)
        let whileSkipping = CLibgit2_set_ssl_cert_file(Self.bundle)
        let skippedMessage = git_error_last().map { String(cString: $0.pointee.message) }
        CGitStartup_skipDefaultCertificates(0)
        #expect(whileSkipping == -1)
        #expect(skippedMessage?.contains("CA certificates") == true, "\(skippedMessage ?? "no error")")
        #expect(CLibgit2_set_ssl_cert_file(Self.bundle) == 0, "mbedTLS parses the bundle once start-up is over")
    }
}
