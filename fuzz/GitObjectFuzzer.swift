// libFuzzer entry point for the verifier's readers of raw git objects (built by scripts/fuzz-git-objects,
// not by SwiftPM): the canonical tree parser and the pack delta-structure scanner, which run on every
// byte of a hostile repository before libgit2 does, and the delta applier of the pack reader.
//
// The first input byte chooses the reader; the rest is the object. For packs (selector 1 modulo 4), two
// length bytes give the size of the index, the index follows, then the pack. For deltas (3 modulo 4), two
// length bytes give the size of the base, the base follows, then the delta. Properties: never a crash, a
// hang or an unbounded allocation; a tree the parser accepts re-serializes to exactly its bytes (one
// canonical form); a pack scan terminates with an answer; a delta applied fills exactly the size it
// declares.
//
// At exit it prints how many inputs reached the pack scan (an index it accepted, listing objects) and how
// many of those held a delta, and how many deltas were applied whole: scripts/fuzz-git-objects fails a run
// that never got that far.

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs whose index was accepted and whose pack was scanned, and those among them with a delta.
nonisolated(unsafe) var packScans = 0
nonisolated(unsafe) var packScansWithADelta = 0
/// Deltas applied whole, without an error.
nonisolated(unsafe) var deltasApplied = 0

/// Prints the counts when the fuzzer exits (libFuzzer ends a timed run with `exit`).
let reportAtExit: Void = {
    atexit {
        fputs("pack scans: \(packScans), with a delta: \(packScansWithADelta)\n", stderr)
        fputs("deltas applied: \(deltasApplied)\n", stderr)
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = reportAtExit
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    if selector & 1 == 0 {
        guard case .success(let entries) = CanonicalTree.parse(rest) else { return 0 }
        // Rebuild the bytes from the entries: ids are the 20 bytes after each name's NUL.
        var rebuilt: [UInt8] = []
        var cursor = 0
        for entry in entries {
            let header = Array((entry.isTree ? "40000 " : "100644 ").utf8) + rest[entry.nameStart..<entry.nameEnd] + [0]
            rebuilt += header + rest[(cursor + header.count)..<(cursor + header.count + 20)]
            cursor += header.count + 20
        }
        guard rebuilt == rest else { fatalError("an accepted tree has another canonical form") }
        return 0
    }
    guard rest.count >= 2 else { return 0 }
    if selector & 3 == 3 {
        let baseLength = Int(rest[0]) << 8 | Int(rest[1])
        guard rest.count >= 2 + baseLength else { return 0 }
        let base = Array(rest[2..<(2 + baseLength)])
        let delta = Array(rest[(2 + baseLength)...])
        delta.withUnsafeBytes { deltaBytes in
            base.withUnsafeBytes { baseBytes in
                guard let sizes = try? PackDelta.sizes(deltaBytes), sizes.result <= 1 << 20 else { return }
                var result = [UInt8](repeating: 0xA5, count: sizes.result)
                let applied = result.withUnsafeMutableBytes { resultBytes in
                    (try? PackDelta.apply(deltaBytes, to: baseBytes, into: resultBytes)) != nil
                }
                if applied { deltasApplied += 1 }
            }
        }
        return 0
    }
    let indexLength = Int(rest[0]) << 8 | Int(rest[1])
    guard rest.count >= 2 + indexLength else { return 0 }
    let index = Array(rest[2..<(2 + indexLength)])
    let pack = Array(rest[(2 + indexLength)...])
    index.withUnsafeBytes { indexBytes in
        pack.withUnsafeBytes { packBytes in
            guard let entries = try? PackStructure.parseIndex(indexBytes), entries.count <= 4096 else { return }
            _ = PackStructure.violation([("fuzz.pack", packBytes, entries)])
            guard !entries.isEmpty else { return }
            packScans += 1
            let delta = entries.contains {
                guard let base = try? PackStructure.base(in: packBytes, at: $0.offset) else { return false }
                return base != .none
            }
            if delta { packScansWithADelta += 1 }
        }
    }
    return 0
}
