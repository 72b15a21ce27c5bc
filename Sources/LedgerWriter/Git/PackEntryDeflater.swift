internal import CDeflate
import Synchronization

/// Deflates an object for a pack — one zlib stream (RFC 1950) at level 1, by libdeflate's whole-buffer
/// compressor — and gives the CRC-32 a pack index keeps for an entry, libdeflate's too.
///
/// A record is a few hundred bytes, given whole: libdeflate compresses that twice as fast as one reused
/// zlib stream at the same level, 2.3× as fast as `compress2`, into streams no larger in total
/// (docs/DECISIONS.md, "Pack entries deflated by libdeflate"). Any zlib stream is a valid pack entry; an
/// object's id is the hash of its bytes, so the ids do not change.
///
/// A compressor holds 200 KiB of state at level 1 and serves one thread at a time: idle ones wait in a
/// pool, so the pack's deflate workers reuse them rather than allocating one an object.
enum PackEntryDeflater {
    /// libdeflate's fastest level, as the pack has always used zlib's (`Z_BEST_SPEED`).
    static let level: Int32 = 1

    /// Appends `data`, deflated as one zlib stream, to `output`; on an error `output` is as it was.
    static func append(_ data: [UInt8], to output: inout [UInt8]) throws(PackWriter.PackError) {
        guard let compressor = pool.take() else {
            throw PackWriter.PackError(description: "libdeflate could not allocate a compressor (out of memory)")
        }
        defer { pool.give(compressor) }
        let start = output.count
        let bound = libdeflate_zlib_compress_bound(compressor.pointer, data.count)
        output += repeatElement(0, count: bound)
        let written = data.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                libdeflate_zlib_compress(
                    compressor.pointer, source.baseAddress, source.count, target.baseAddress! + start, bound)
            }
        }
        // 0 is libdeflate's "did not fit", which its own bound rules out; a zlib stream is never empty.
        guard written > 0 else {
            output.removeLast(bound)
            throw PackWriter.PackError(description: "libdeflate: the stream did not fit its bound")
        }
        output.removeLast(bound - written)
    }

    /// The CRC-32 of `bytes` (gzip's and zlib's `crc32`, as a pack index records an entry's).
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        libdeflate_crc32(0, bytes.baseAddress, bytes.count)
    }

    /// A compressor, handed between threads only through the pool's lock.
    private struct Compressor: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Idle compressors; one is made when none waits, so there are as many as threads ever deflated at once.
    /// They live as long as the process.
    private final class Pool: Sendable {
        private let idle = Mutex<[Compressor]>([])

        func take() -> Compressor? {
            if let waiting = idle.withLock({ $0.popLast() }) { return waiting }
            return libdeflate_alloc_compressor(PackEntryDeflater.level).map(Compressor.init(pointer:))
        }

        func give(_ compressor: Compressor) {
            idle.withLock { $0.append(compressor) }
        }
    }

    private static let pool = Pool()
}
