import Dispatch
import LedgerStore

/// The pack merges of an ``Appender``, each written on a thread of its own while the appender judges and
/// writes the batches that follow (docs/DECISIONS.md, "Packs merge beside the next batches").
///
/// A batch's judging, planning and tree run on one core; a merge rewrites each object about log₂(batches)
/// times over a ledger's life, which made batches at 10^6 entries a fifth slower than at 10^4 when it ran
/// between them. Here a merge only writes its pack beside the packs it merges (``PackMerge/write()``); those
/// are removed by the appender's own thread after a later batch is published, when nothing of this
/// process reads them — so a merge never takes a pack from under a read, and every object stays in at least
/// one pack throughout. One merge at a time: the packs written meanwhile wait for the next one, and past
/// ``waitBeyond`` packs a batch waits for the merge, which bounds the packs a lookup searches.
final class BackgroundPackMerges {
    /// A merge being written, and what it wrote.
    private final class Job: @unchecked Sendable {
        let merge: PackMerge
        /// Written by the merging thread before it leaves ``done``; read only once ``done`` was waited on.
        var written: String?
        let done = DispatchGroup()

        init(_ merge: PackMerge) { self.merge = merge }
    }

    /// How many packs may exist while a merge is being written before a batch waits for it.
    static let waitBeyond = 4 * Repository.packLimit

    private var job: Job?
    private let queue = DispatchQueue(label: "onym-ledger.pack-merge")
    /// Runs on the merging thread before a merge is written (tests hold a merge in flight with it).
    private let beforeWriting: (@Sendable () -> Void)?

    init(beforeWriting: (@Sendable () -> Void)? = nil) { self.beforeWriting = beforeWriting }

    /// Whether a merge is being written (its pack may already sit beside the packs it merges).
    var isWriting: Bool { job != nil }

    /// Removes the packs a finished merge replaced. With `wait`, waits for the merge being written first; else
    /// leaves one that is not finished to finish, unless more than ``waitBeyond`` packs are in its folder.
    func collect(wait: Bool = false) {
        guard let job else { return }
        if !wait, job.done.wait(timeout: .now()) != .success {
            guard Repository.packNames(in: job.merge.directory).count > Self.waitBeyond else { return }
        }
        job.done.wait()
        if let written = job.written { job.merge.removeMerged(keeping: written) }
        self.job = nil
    }

    /// Starts the merge the packs in `gitDirectory` call for (``PackMerge/planned(gitDirectory:)``), unless
    /// one is still being written.
    func start(gitDirectory: String) {
        guard job == nil, let merge = PackMerge.planned(gitDirectory: gitDirectory) else { return }
        let next = Job(merge)
        next.done.enter()
        queue.async { [beforeWriting] in
            beforeWriting?()
            let clock = PhaseClock()
            // A merge that fails leaves the packs as they were: merging is housekeeping, never part of an
            // append's safety, and the next batch plans again.
            next.written = try? merge.write()
            clock.lap("merge packs (beside the next batches)")
            clock.report()
            next.done.leave()
        }
        job = next
    }
}
