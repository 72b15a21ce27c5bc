internal import CGitStartup
internal import CLibgit2

/// libgit2's process-wide initialisation, done once (never per object, never shut down).
package enum GitLibrary {
    private static let initialized: Bool = {
        // The certificate bundle libgit2 parses at start-up serves HTTPS remotes, which no command opens:
        // skipped (~4 ms a run; CGitStartup's GitStartup.c), and the error its absence leaves cleared.
        CGitStartup_skipDefaultCertificates(1)
        let started = git_libgit2_init()
        CGitStartup_skipDefaultCertificates(0)
        guard started >= 0 else { return false }
        git_error_clear()
        // Durability: packs, loose objects and refs are fsynced before they count as written,
        // so an acknowledged append survives a power cut, not just a killed process.
        _ = CLibgit2_set_fsync_gitdir(1)
        _ = CLibgit2_set_strict_object_creation(1)
        // Records are read once per run: caching blobs only grew memory (491 MiB at 100k entries). Trees are
        // read again and again (a commit's old tree is the previous commit's new one): they stay cached.
        _ = CLibgit2_set_cache_object_limit(GIT_OBJECT_BLOB, 0)
        // Bounded memory whatever the ledger's size (BENCHMARKS.md): 32 MiB of cached trees (64 MiB held ~58 MiB
        // more at 10^6 entries for no time this machine can tell apart; 16 MiB cost ~10 % in trees read again),
        // 64 MiB of mapped packs in 16 MiB windows (128 MiB in 32 MiB windows held a 100k ledger's whole 60 MB
        // pack resident: peak 240 MiB → 180 MiB at 100k, the same time).
        // The mapped limit is kept by unmapping whole windows, least recently used first, so a window must be
        // a fraction of it: with the default 1 GiB window a 640 MB pack was one window, mapped for the whole
        // run, and every page a read touched stayed resident (~680 MB at 10^6 entries). Small windows cost
        // nothing while packs keep a commit's objects together (`consolidatePacks` keeps write order).
        _ = CLibgit2_set_cache_max_size(32 << 20)
        _ = CLibgit2_set_mwindow_size(16 << 20)
        _ = CLibgit2_set_mwindow_mapped_limit(64 << 20)
        return true
    }()

    package static func ensureInitialized() {
        precondition(initialized, "git_libgit2_init failed")
    }
}
