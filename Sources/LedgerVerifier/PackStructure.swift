// The git-object fuzzer compiles this file with PackIndex.swift as one module (scripts/fuzz-git-objects).
#if canImport(LedgerStore)
    import LedgerStore
#endif

/// The delta structure of git packs, read from their bytes (bounded work on hostile input): libgit2 1.5
/// follows a cyclic or self-based delta forever (`git_odb_read_header` never returns). Each object's
/// base is found from the pack itself — an `OFS_DELTA` must point strictly backwards, a `REF_DELTA`
/// names an object by id — and every chain is followed with cycle detection and a depth bound, each
/// object once. Pure (bytes in, a reason out), so the git-object fuzzer exercises it directly.
enum PackStructure {
    /// Most deltas one chain may hold, counted as git's `--depth` counts them: an object stored whole has
    /// depth 0, a delta one more than its base (git's default is 50; `git repack` allows up to 4 095).
    /// docs/VERIFY.md: "a chain of more than 10 000 deltas" stops the run, so 10 000 is accepted.
    static let maxDeltaDepth = 10_000
    /// Most objects one chain may hold: its deltas and the object stored whole at its end.
    static let maxChainObjects = maxDeltaDepth + 1
    /// How far the scan moves through a pack between releases of what it read (``violation(_:release:)``).
    static let releaseStride = 32 << 20

    typealias Base = PackObjectHeader.Base

    typealias PackedID = PackedObjectID

    struct PackError: Error {
        let reason: String
    }

    /// The objects a version-2 pack index lists: id and offset into the pack (``PackIndex``), read in place.
    static func parseIndex(_ bytes: UnsafeRawBufferPointer) throws(PackError) -> PackIndex.Table {
        do throws(PackIndex.Malformed) {
            return try PackIndex.Table(bytes)
        } catch {
            throw PackError(reason: error.reason)
        }
    }

    /// The delta base of the object at `offset` in `pack` (after the 12-byte header), from its header
    /// (``PackObjectHeader``, the parser the pack reader uses too).
    static func base(in pack: UnsafeRawBufferPointer, at offset: Int) throws(PackError) -> Base {
        guard offset >= 12, offset < pack.count else {
            throw PackError(reason: "an object offset \(offset) outside the pack")
        }
        do throws(PackObjectHeader.Malformed) {
            return try PackObjectHeader.parse(pack, at: offset, offset: offset).base
        } catch {
            throw PackError(reason: error.reason)
        }
    }

    /// Why the packs' delta chains are unsafe to follow, or nil. `packs` are (name, pack bytes, index).
    /// Each pack's objects are visited in the order they lie in it; `release(pack, below)` is told, every
    /// ``releaseStride`` bytes, that the bytes of `pack` before `below` are behind the scan (a mapped file
    /// can drop them from memory: a later delta reaching back reads them again).
    static func violation(
        _ packs: [(name: String, pack: UnsafeRawBufferPointer, entries: PackIndex.Table)],
        release: (_ pack: Int, _ below: Int) -> Void = { _, _ in }
    )
        -> String?
    {
        // Each pack's objects, by id. A REF_DELTA base is looked up in its own pack only, as libgit2 does
        // (`get_delta_base`: "the base entry must be in the same pack"); one that is not there ends the chain
        // (libgit2 then fails cleanly). Resolving it in another pack would check a chain libgit2 never
        // follows and miss the one it does: a cycle inside one pack, hidden by a full copy of the base in a
        // pack whose name sorts first.
        // Built for a pack when its first REF_DELTA needs it (the writer's packs have none).
        var where_: [[PackedID: Int]?] = Array(repeating: nil, count: packs.count)
        func offset(of id: PackedID, inPack number: Int) -> Int? {
            if where_[number] == nil {
                var offsets: [PackedID: Int] = [:]
                offsets.reserveCapacity(packs[number].entries.count)
                for entry in packs[number].entries where offsets[entry.id] == nil { offsets[entry.id] = entry.offset }
                where_[number] = offsets
            }
            return where_[number]?[id]
        }
        struct Key: Hashable {
            let pack: Int
            let offset: Int
        }
        // Each settled delta's chain length (itself and its bases); chains are walked once. An object stored
        // whole is not kept (its length is 1, read again from its header when a delta reaches it), so the
        // table holds the deltas only. The chain and its set are reused across objects; the set is only
        // filled past a few links (most objects are not deltas, and most chains are short: a linear search
        // is cheaper there).
        var depth: [Key: Int] = [:]
        var chain: [Key] = []
        var onChain: Set<Key> = []
        for (number, pack) in packs.enumerated() {
            var released = 0
            // The offsets alone, sorted (8 bytes an object); an object's id is looked up only to name it.
            var sortedOffsets = pack.entries.indices.map { pack.entries.offset(at: $0) }
            sortedOffsets.sort()
            func named(_ offset: Int) -> String {
                hex(pack.entries.first { $0.offset == offset }.map { $0.id.bytes } ?? [])
            }
            for entryOffset in sortedOffsets {
                if entryOffset - released >= releaseStride {
                    released = entryOffset
                    release(number, released)
                }
                chain.removeAll(keepingCapacity: true)
                onChain.removeAll(keepingCapacity: true)
                var current = Key(pack: number, offset: entryOffset)
                var below = 0
                while true {
                    if let known = depth[current] {
                        below = known
                        break
                    }
                    let seen: Bool
                    if chain.count < 16 {
                        seen = chain.contains(current)
                    } else {
                        if onChain.isEmpty { onChain.formUnion(chain) }
                        seen = !onChain.insert(current).inserted
                    }
                    guard !seen else {
                        return "\(pack.name): the delta chain of \(named(entryOffset)) is cyclic"
                    }
                    chain.append(current)
                    guard chain.count <= maxChainObjects else {
                        return
                            "\(pack.name): the delta chain of \(named(entryOffset)) is longer than \(maxDeltaDepth) deltas"
                    }
                    let base: Base
                    do {
                        base = try Self.base(in: packs[current.pack].pack, at: current.offset)
                    } catch {
                        return "\(packs[current.pack].name): \(error.reason)"
                    }
                    guard case .none = base else {
                        if case .offset(let offset) = base {
                            current = Key(pack: current.pack, offset: offset)
                            continue
                        }
                        if case .id(let id) = base, let found = offset(of: id, inPack: current.pack) {
                            current = Key(pack: current.pack, offset: found)
                            continue
                        }
                        break  // a base outside its pack: libgit2 refuses to read the object, it does not loop
                    }
                    break
                }
                guard chain.count + below <= maxChainObjects else {
                    return
                        "\(pack.name): the delta chain of \(named(entryOffset)) is longer than \(maxDeltaDepth) deltas"
                }
                for (position, key) in chain.enumerated() where below > 0 || position < chain.count - 1 {
                    depth[key] = chain.count - position + below
                }
            }
        }
        return nil
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
