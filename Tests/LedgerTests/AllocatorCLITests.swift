import Foundation
import Testing

@Suite("CLI: the executable runs on jemalloc")
struct AllocatorCLITests {
    /// jemalloc counts the bytes its own `malloc` serves on a thread, and memory glibc's `malloc` hands out
    /// leaves that count where it was. So the trace line's count for one 4 KiB allocation of the Swift runtime
    /// is 4 096 or more only if the process's `malloc` is jemalloc's (docs/DECISIONS.md, "The executables run
    /// on jemalloc"); the same binary with glibc's `malloc` put first (`LD_PRELOAD=libc.so.6`) counts zero.
    @Test func theExecutablesMallocIsJemallocs() throws {
        let linked = try bytesCounted(
            CLI.run(["--version"], environment: ["ONYM_LEDGER_TRACE": "1", "LD_PRELOAD": ""]))
        #expect(linked >= 4096)
        let glibcFirst = try bytesCounted(
            CLI.run(["--version"], environment: ["ONYM_LEDGER_TRACE": "1", "LD_PRELOAD": "libc.so.6"]))
        #expect(glibcFirst == 0)
    }

    /// Without the trace switch, `--version` prints the version and nothing else (the child inherits the
    /// test run's environment: this assumes `ONYM_LEDGER_TRACE` is not set there).
    @Test func theAllocatorLineIsATraceLine() {
        let run = CLI.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("onym-ledger "))
    }

    /// The count on the trace's allocator line.
    private func bytesCounted(_ run: (status: Int32, stdout: String, stderr: String)) throws -> UInt64 {
        #expect(run.status == 0)
        let line = try #require(
            run.stderr.split(separator: "\n").first { $0.hasPrefix("trace: allocator: jemalloc ") },
            "no allocator line in: \(run.stderr)")
        return try #require(
            line.components(separatedBy: "counted for a 4 KiB allocation: ").last?.split(separator: " ").first
                .flatMap { UInt64($0) },
            "no count in: \(line)")
    }
}
