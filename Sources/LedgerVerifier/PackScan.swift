import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// Every pack of a repository checked with ``PackStructure`` before libgit2 touches an object: packs
/// are mapped, not read, one at a time, front to back, what is behind the scan released as it goes; the work
/// is one header per object.
///
/// A pack's verdict depends on its own bytes only (a `REF_DELTA` base is looked up in its own pack), so a
/// run given a memory folder (the auditor's state) skips packs it scanned before and found clean. A pack is
/// known by its file identity — device, inode, size, modification and change times of the pack and of its
/// index — never by its name or trailer, which a rewritten copy can keep: any write to a file changes its
/// change time, which no user can set back. A pack whose files changed within two seconds of the scan is
/// not remembered (a write in the same clock tick would leave the times unchanged: git's "racy" case).
enum PackScan {
    /// The repository's packs checked before anything is read through libgit2: a finding of
    /// `RepositoryPolicy` when a chain is cyclic, self-based, too long or malformed. With `memory` (a folder
    /// of local state), the clean packs are remembered and — unless `rescan` (`--full`) — packs scanned
    /// clean before are skipped.
    static func findings(gitDirectory: String, memory: String? = nil, rescan: Bool = false) -> [PolicyFailure] {
        let folder = PackFolder.path(gitDirectory: gitDirectory)
        let names = PackFolder.names(in: folder, endingIn: ".pack")
        let started = FileIdentity.now()
        let memoryFile = memory.map { $0 + "/" + SHA256.hash(Array(folder.utf8)).hex }
        let remembered = Set(
            (memoryFile.flatMap { DurableFile.read($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\n").map(String.init))
        // One pack at a time, each unmapped before the next is mapped (a pack's verdict depends on its own
        // bytes only): memory is the largest pack's, not every pack's — 700 MB at 10^6 entries.
        var stamps: [String] = []
        var scanned = 0
        for name in names.sorted() {
            guard let pack = MappedFile(folder + name + ".pack"), let index = MappedFile(folder + name + ".idx") else {
                continue  // no index: libgit2 does not use the pack either
            }
            let stamp = Self.stamp(name, pack, index, before: started)
            if let stamp {
                stamps.append(stamp)
                if remembered.contains(stamp) && !rescan { continue }
            }
            scanned += 1
            let reason: String?
            do {
                reason = PackStructure.violation(
                    [(name + ".pack", pack.bytes, try PackStructure.parseIndex(index.bytes))],
                    release: { _, below in pack.release(below: below) })
            } catch {
                PhaseClock.note("pack scan: \(scanned) of \(names.count) packs scanned")
                return [
                    PolicyFailure(
                        policy: RepositoryShape.policyName, commit: nil, reason: "\(name).idx: \(error.reason)")
                ]
            }
            if let reason {
                PhaseClock.note("pack scan: \(scanned) of \(names.count) packs scanned")
                return [
                    PolicyFailure(
                        policy: RepositoryShape.policyName, commit: nil, reason: reason + "; nothing was read")
                ]
            }
        }
        PhaseClock.note("pack scan: \(scanned) of \(names.count) packs scanned")
        if let memory, let memoryFile, Set(stamps) != remembered {
            try? DurableFile.makeFolders(memory)
            try? DurableFile.write(Array(stamps.map { $0 + "\n" }.joined().utf8), to: memoryFile, durable: false)
        }
        return []
    }

    /// A pack's file identity, or nil when one of its files changed less than two seconds before `scan`
    /// (too recent to tell a later write in the same clock tick apart).
    static func stamp(_ name: String, _ pack: MappedFile, _ index: MappedFile, before scan: timespec) -> String? {
        guard let packIdentity = FileIdentity.of(pack.info, before: scan),
            let indexIdentity = FileIdentity.of(index.info, before: scan)
        else { return nil }
        return "\(name) \(packIdentity) \(indexIdentity)"
    }
}

/// A read-only memory map of a whole file (unmapped when released).
final class MappedFile {
    let bytes: UnsafeRawBufferPointer
    /// The file's status when it was mapped (from the same descriptor).
    let info: stat

    init?(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        self.info = info
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Drops the pages before `offset` from memory (a private read-only mapping of a file: a later read
    /// maps them from the file again). A pack scan's pages would otherwise stay resident until it unmaps the
    /// pack — all 640 MB of one at 10^6 entries.
    func release(below offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = min(offset, bytes.count) / page * page
        guard let base = bytes.baseAddress, length > 0 else { return }
        madvise(UnsafeMutableRawPointer(mutating: base), length, MADV_DONTNEED)
    }
}
