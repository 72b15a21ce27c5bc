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

    @Test func theCertificateBundleIsRefusedOnlyWhileStartUpSkipsIt() throws {
        try #require(FileManager.default.isReadableFile(atPath: Self.bundle), "the system's certificate bundle")
        GitLibrary.ensureInitialized()
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
