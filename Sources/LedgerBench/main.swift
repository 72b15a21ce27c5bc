import Dispatch
import Foundation
import LedgerFormat
import LedgerStore
import LedgerTestSupport
import LedgerWriter

/// `ledger-bench`: the pieces benchmarks/run times. Not part of the test suite.
///
///   ledger-bench generate --entries N --out DIR [--batch 500]   build a synthetic ledger; prints records/s
///   ledger-bench floor --signatures N --bytes B                  raw Ed25519 verifies on both cores + SHA-256
func main() throws -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    switch arguments.first {
    case "generate":
        let entries = Int(value("--entries") ?? "10000")!
        let ledger = SyntheticLedger(
            path: value("--out")!, entries: entries, batchEntries: Int(value("--batch") ?? "500")!)
        let stats = try ledger.build()
        print(
            "generate entries=\(entries) records=\(stats.records) commits=\(stats.commits) seconds=\(String(format: "%.2f", stats.seconds)) append_seconds=\(String(format: "%.2f", stats.appendSeconds)) append_records_per_s=\(Int(Double(stats.records) / stats.appendSeconds))"
        )
    case "floor":
        let count = Int(value("--signatures")!)!
        let bytes = Int(value("--bytes")!)!
        let key = Ed25519.PrivateKey(seed: FixtureSeed.repeated(0x42))!
        let message = [UInt8](repeating: 0x61, count: 300)
        let signature = key.signature(for: message)
        let publicKey = key.publicKey
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let share = count / 2 + (worker == 0 ? count % 2 : 0)
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
            "floor signatures=\(count) verify_seconds=\(String(format: "%.3f", verifySeconds)) bytes=\(bytes) sha256_seconds=\(String(format: "%.3f", hashSeconds)) total_seconds=\(String(format: "%.3f", verifySeconds + hashSeconds))"
        )
    default:
        FileHandle.standardError.write(Data("usage: ledger-bench generate|floor …\n".utf8))
        return 64
    }
    return 0
}

exit(try main())
