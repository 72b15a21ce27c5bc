import LedgerFormat
import LedgerStore

#if canImport(Glibc)
    import Glibc
#endif

/// Every pack of a repository checked with ``PackStructure`` before libgit2 touches an object: packs
/// are mapped, not read; the work is one header per object.
enum PackScan {
    /// The repository's packs checked before anything is read through libgit2: a finding of
    /// `RepositoryPolicy` when a chain is cyclic, self-based, too long or malformed.
    static func findings(gitDirectory: String) -> [PolicyFailure] {
        let folder = gitDirectory + (gitDirectory.hasSuffix("/") ? "" : "/") + "objects/pack/"
        var names: [String] = []
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasSuffix(".pack") { names.append(String(name.dropLast(5))) }
            }
            closedir(directory)
        }
        var maps: [MappedFile] = []
        var packs:
            [(name: String, pack: UnsafeRawBufferPointer, entries: [(id: PackStructure.PackedID, offset: Int)])] = []
        for name in names.sorted() {
            guard let pack = MappedFile(folder + name + ".pack"), let index = MappedFile(folder + name + ".idx") else {
                continue  // no index: libgit2 does not use the pack either
            }
            maps += [pack, index]
            do {
                packs.append((name + ".pack", pack.bytes, try PackStructure.parseIndex(index.bytes)))
            } catch {
                return [
                    PolicyFailure(
                        policy: RepositoryShape.policyName, commit: nil, reason: "\(name).idx: \(error.reason)")
                ]
            }
        }
        let reason = PackStructure.violation(packs)
        withExtendedLifetime(maps) {}
        return reason.map {
            [PolicyFailure(policy: RepositoryShape.policyName, commit: nil, reason: $0 + "; nothing was read")]
        }
            ?? []
    }
}

/// A read-only memory map of a whole file (unmapped when released).
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    init?(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
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
}
