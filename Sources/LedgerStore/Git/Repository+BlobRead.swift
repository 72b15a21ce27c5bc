internal import CLibgit2

extension Repository {
    /// What reading a blob within a limit found: its bytes, or — over the limit — only its size.
    public enum BlobWithin: Sendable {
        case bytes([UInt8])
        case tooLarge(size: Int)
    }

    /// The blob `id` when its header gives at most `limit` bytes, else its size, nothing past the header
    /// read: one lookup where ``blobSize(_:)`` then ``readBlob(_:limit:)`` made two trips through libgit2.
    ///
    /// When the project's pack reader holds the object (``openForReading(_:keepingOffsets:)``), it is read
    /// there directly, and its bytes are hashed and compared with `id` as libgit2's strict verification does
    /// for every object it reads (`git_odb_hash`, with git's collision detection): a pack that gives other
    /// bytes than its index promises is an error, never another blob. On the verifier's reading thread the
    /// object may be found by its id's first five bytes alone (`PackFile.candidate(for:)`, no read of the
    /// index): that hash is then what confirms it, and anything else — another kind, another size, other
    /// bytes — is looked up again by the exact ids before an answer is given. Anything else — a loose
    /// object, a handle libgit2 reads alone — is read through libgit2.
    public func readBlob(_ id: ObjectID, within limit: Int) throws(GitError) -> BlobWithin {
        if let packReader {
            var found: Found?
            switch Result(catching: { () throws(GitError) in
                try Self.packed(id, in: packReader, within: limit, exact: false)
            }) {
            case .success(let candidate?) where !candidate.confirmed:
                // The one object whose id begins as `id` does: believed only as a blob within the limit whose
                // bytes hash to `id`; anything else is looked up again by the index's exact ids.
                if candidate.type == Int(GIT_OBJECT_BLOB.rawValue), let bytes = candidate.bytes,
                    bytes.count == candidate.size, (try? Repository.blobID(of: bytes)) == id
                {
                    return .bytes(bytes)
                }
                found = try Self.packed(id, in: packReader, within: limit, exact: true)
            case .success(let exact):
                found = exact
            case .failure:
                // Reading a lookalike failed (another object, perhaps damaged): the exact ids decide.
                found = try Self.packed(id, in: packReader, within: limit, exact: true)
            }
            if let found {
                // Over the limit whatever it is, as the header says (RecordLimitsPolicy reports it); within it,
                // only a blob whose bytes hash to `id`.
                guard found.size <= limit else { return .tooLarge(size: found.size) }
                guard found.type == Int(GIT_OBJECT_BLOB.rawValue), let bytes = found.bytes else {
                    throw GitError.fail("object \(id.short) is not a blob (type \(found.type))")
                }
                let hashed = try Repository.blobID(of: bytes)
                guard bytes.count == found.size, hashed == id else {
                    throw GitError.fail(
                        "object hash mismatch: \(found.pack) gives blob \(id.short) bytes that hash to \(hashed.short)")
                }
                return .bytes(bytes)
            }
        }
        let size = try blobSize(id)
        guard size <= limit else { return .tooLarge(size: size) }
        return .bytes(try readBlob(id))
    }

    /// What the pack reader found for an id (``packed(_:in:within:exact:)``).
    private typealias Found = (pack: String, type: Int, size: Int, bytes: [UInt8]?, confirmed: Bool)

    /// The object `id` as the pack reader finds it — by the index's exact ids, or (`exact` false) the object
    /// whose id begins alike (``PackReadingBackend/locateCandidate(_:)``) — its type and size from its header,
    /// and its bytes unless it is a blob over `limit` (or not a blob); nil when no pack holds it.
    private static func packed(_ id: ObjectID, in reader: PackReadingBackend, within limit: Int, exact: Bool)
        throws(GitError) -> Found?
    {
        do throws(PackFile.Unreadable) {
            let packed = PackedObjectID(id)
            let located: (pack: PackFile, offset: Int, confirmed: Bool)?
            if exact {
                located = try reader.locate(packed).map { ($0.pack, $0.offset, true) }
            } else {
                located = try reader.locateCandidate(packed)
            }
            guard let (pack, offset, confirmed) = located else { return nil }
            let header = try pack.typeAndSize(at: offset)
            guard header.type == Int(GIT_OBJECT_BLOB.rawValue), header.size <= limit else {
                return (pack.name, header.type, header.size, nil, confirmed)
            }
            let object = try pack.object(at: offset)
            return (pack.name, object.type, header.size, object.bytes, confirmed)
        } catch {
            throw GitError.fail(error.reason)
        }
    }
}
