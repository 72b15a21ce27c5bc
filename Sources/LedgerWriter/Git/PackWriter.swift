internal import CLibgit2
import LedgerStore
internal import COpenSSL
internal import CZlib

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one batch's new objects as a git pack (version 2, no deltas) with its version-2 index.
///
/// libgit2's pack builder spent ~9.6 s of an 11 s, 100 000-record append searching for deltas and
/// re-hashing: a ledger batch is thousands of small, distinct JSON files, and deltas buy little.
/// This writer deflates each object once (zlib level 1), computes the index from what it wrote, and
/// makes the pack visible atomically: `.pack` then `.idx`, each written to a temporary name, fsynced
/// and renamed (git treats a pack as present once its `.idx` is). See BENCHMARKS.md.
struct PackWriter {
    struct Object {
        let id: ObjectID
        let type: git_object_t
        let data: [UInt8]
    }

    struct PackError: Error, CustomStringConvertible { let description: String }

    /// Writes `objects` into `directory` (a repository's `objects/pack/`); returns the pack's name.
    static func write(_ objects: [Object], into directory: String) throws(PackError) -> String {
        var pack: [UInt8] = Array("PACK".utf8)
        appendUInt32(&pack, 2)
        appendUInt32(&pack, UInt32(objects.count))
        var entries: [(id: ObjectID, offset: Int, crc: UInt32)] = []
        entries.reserveCapacity(objects.count)
        var compressed = [UInt8](repeating: 0, count: 0)
        for object in objects {
            let offset = pack.count
            var header: [UInt8] = []
            var size = object.data.count
            var byte = UInt8(truncatingIfNeeded: (Int(object.type.rawValue) << 4) | (size & 0x0F))
            size >>= 4
            while size > 0 {
                header.append(byte | 0x80)
                byte = UInt8(truncatingIfNeeded: size & 0x7F)
                size >>= 7
            }
            header.append(byte)
            var bound = compressBound(uLong(object.data.count))
            if compressed.count < Int(bound) { compressed = [UInt8](repeating: 0, count: Int(bound)) }
            let status = object.data.withUnsafeBufferPointer { source in
                compressed.withUnsafeMutableBufferPointer { target in
                    compress2(target.baseAddress, &bound, source.baseAddress, uLong(source.count), Z_BEST_SPEED)
                }
            }
            guard status == Z_OK else { throw PackError(description: "zlib compress2 failed (\(status))") }
            pack += header
            pack += compressed[0..<Int(bound)]
            let crc = pack[offset...].withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            guard offset < Int(Int32.max) else { throw PackError(description: "a batch pack over 2 GiB") }
            entries.append((object.id, offset, crc))
        }
        let packChecksum = sha1(pack)
        pack += packChecksum

        entries.sort { $0.id.bytes.lexicographicallyPrecedes($1.id.bytes) }
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63]
        appendUInt32(&index, 2)
        var fanout = [UInt32](repeating: 0, count: 256)
        for entry in entries { fanout[Int(entry.id.bytes[0])] += 1 }
        var running: UInt32 = 0
        for bucket in 0..<256 {
            running += fanout[bucket]
            appendUInt32(&index, running)
        }
        for entry in entries { index += entry.id.bytes }
        for entry in entries { appendUInt32(&index, entry.crc) }
        for entry in entries { appendUInt32(&index, UInt32(entry.offset)) }
        index += packChecksum
        index += sha1(index)

        let name = "pack-" + ObjectID(bytes: packChecksum).hex
        try writeDurably(pack, to: directory + name + ".pack")
        try writeDurably(index, to: directory + name + ".idx")
        return name
    }

    private static func appendUInt32(_ bytes: inout [UInt8], _ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        let status = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, nil, EVP_sha1(), nil)
            }
        }
        precondition(status == 1, "EVP_Digest(SHA-1) failed")
        return digest
    }

    /// temp → write → fsync → rename (read-only, as git makes pack files).
    private static func writeDurably(_ bytes: [UInt8], to path: String) throws(PackError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o444)
        guard fd >= 0 else { throw PackError(description: "\(temporary): open failed (errno \(errno))") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                close(fd)
                unlink(temporary)
                throw PackError(description: "\(temporary): write failed (errno \(errno))")
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            close(fd)
            unlink(temporary)
            throw PackError(description: "\(temporary): fsync failed")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw PackError(description: "\(path): rename failed (errno \(errno))")
        }
    }
}

extension ObjectID {
    init(bytes: [UInt8]) {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
        self.init(oid)
    }
}
