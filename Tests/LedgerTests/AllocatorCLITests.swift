import Foundation
import Testing

@Suite("CLI: the executable runs on jemalloc")
struct AllocatorCLITests {
    /// jemalloc counts the bytes its own `malloc` served on a thread; memory glibc's `malloc` hands out leaves
    /// that count where it was. So a count above zero before any verb has run says the process's `malloc` —
    /// the Swift runtime's, libgit2's, OpenSSL's — is jemalloc's (docs/DECISIONS.md, "The executables run on
    /// jemalloc"). The same binary with glibc's `malloc` put first (`LD_PRELOAD=libc.so.6`) counts zero: the
    /// count tells the two apart.
    @Test func theExecutablesMallocIsJemallocs() throws {
        let linked = try bytesServed(CLI.run(["--version"], environment: ["ONYM_LEDGER_TRACE": "1"]))
        #expect(linked > 0)
        let glibcFirst = try bytesServed(
            CLI.run(["--version"], environment: ["ONYM_LEDGER_TRACE": "1", "LD_PRELOAD": "libc.so.6"]))
        #expect(glibcFirst == 0)
    }

    /// Without the trace switch, `--version` prints the version and nothing else.
    @Test func theAllocatorLineIsATraceLine() {
        let run = CLI.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("onym-ledger "))
    }

    /// The count on the trace's allocator line.
    private func bytesServed(_ run: (status: Int32, stdout: String, stderr: String)) throws -> UInt64 {
        #expect(run.status == 0)
        let line = try #require(
            run.stderr.split(separator: "\n").first { $0.hasPrefix("trace: allocator: jemalloc 5.") },
            "no allocator line in: \(run.stderr)")
        return try #require(
            line.components(separatedBy: "served on the main thread: ").last?.split(separator: " ").first
                .flatMap { UInt64($0) },
            "no count in: \(line)")
    }
}
