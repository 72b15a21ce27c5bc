import Dispatch
import Foundation
import LedgerAllocator
import LedgerFormat
import LedgerStore
import LedgerTestSupport
import LedgerWriter

/// `ledger-bench`: the pieces benchmarks/run times. Not part of the test suite.
///
///   ledger-bench generate --entries N --out DIR [--batch 500]   build a synthetic ledger; prints records/s
///   ledger-bench floor --signatures N --bytes B                  raw Ed25519 verifies on both cores + SHA-256
///   ledger-bench allocator                                       the allocator it runs on, as `onym-ledger`:
///                                                                jemalloc (docs/DECISIONS.md, "The executables
///                                                                run on jemalloc"); benchmarks/run checks it
///
/// Exit codes: 0 done, 1 the generation failed (the message names why, e.g. a ledger already at `--out`),
/// 64 a usage error.
func main() throws -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    /// `name`'s value as a positive count (`fallback` when absent); nil, after a message, when it is not one.
    func count(_ name: String, fallback: Int? = nil) -> Int? {
        guard let text = value(name) else {
            if fallback == nil { FileHandle.standardError.write(Data("ledger-bench: \(name) is required\n".utf8)) }
            return fallback
        }
        guard let number = Int(text), number > 0 else {
            FileHandle.standardError.write(
                Data("ledger-bench: \(name) takes a positive whole number, not '\(text)'\n".utf8))
            return nil
        }
        return number
    }
    switch arguments.first {
    case "generate":
        guard let entries = count("--entries", fallback: 10000), let batch = count("--batch", fallback: 500) else {
            return 64
        }
        guard let out = value("--out") else {
            FileHandle.standardError.write(Data("ledger-bench: generate needs --out DIR\n".utf8))
            return 64
        }
        let ledger = SyntheticLedger(path: out, entries: entries, batchEntries: batch)
        let stats = try ledger.build()
        print(
            "generate entries=\(entries) records=\(stats.records) commits=\(stats.commits) seconds=\(String(format: "%.2f", stats.seconds)) append_seconds=\(String(format: "%.2f", stats.appendSeconds)) append_records_per_s=\(Int(Double(stats.records) / stats.appendSeconds))"
        )
    case "floor":
        guard let signatures = count("--signatures"), let bytes = count("--bytes") else { return 64 }
        let key = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x42))!
        let message = [UInt8](repeating: 0x61, count: 300)
        let signature = key.signature(for: message)
        let publicKey = key.publicKey
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let share = signatures / 2 + (worker == 0 ? signatures % 2 : 0)
            for _ in 0..<share { precondition(publicKey.isValidSignature(signature, for: message)) }
        }
        let verifySeconds = Date().timeIntervalSince(started)
        let data = [UInt8](repeating: 0x62, count: 1 << 20)
        let hashStart = Date()
        var remaining = bytes
        while remaining > 0 {
            _ = SHA256.hash(data.prefix(min(remaining, data.count)))
            remaining -= data.count
        }
        let hashSeconds = Date().timeIntervalSince(hashStart)
        print(
            "floor signatures=\(signatures) verify_seconds=\(String(format: "%.3f", verifySeconds)) bytes=\(bytes) sha256_seconds=\(String(format: "%.3f", hashSeconds)) total_seconds=\(String(format: "%.3f", verifySeconds + hashSeconds))"
        )
    case "allocator":
        print("allocator \(Allocator.description)")
    default:
        FileHandle.standardError.write(Data("usage: ledger-bench generate|floor|allocator …\n".utf8))
        return 64
    }
    return 0
}

do {
    exit(try main())
} catch {
    FileHandle.standardError.write(Data("ledger-bench: \(error)\n".utf8))
    exit(1)
}
