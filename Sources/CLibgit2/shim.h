#ifndef CLIBGIT2_SHIM_H
#define CLIBGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

/// `git_libgit2_opts` is variadic, which Swift cannot call: one wrapper per option used.
static inline int CLibgit2_set_fsync_gitdir(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, enabled);
}

static inline int CLibgit2_set_strict_object_creation(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, enabled);
}
/// Limits the object cache for one object type (0 keeps that type out of the cache).
static inline int CLibgit2_set_cache_object_limit(git_object_t type, size_t limit) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, limit);
}
/// Caps how much of the pack files libgit2 keeps mapped at once (mapped pages count as resident memory).
static inline int CLibgit2_set_mwindow_mapped_limit(size_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, bytes);
}

/// Sets the size of one mapped window of a pack file (the default, 1 GiB on 64-bit, maps a whole pack as
/// one window, which the mapped limit cannot then unmap).
static inline int CLibgit2_set_mwindow_size(size_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, bytes);
}

/// Sets the certificate file libgit2's HTTPS transport trusts (no command opens a remote; tests use it to see
/// that the start-up's skipping of the system bundle leaves later certificate loading to mbedTLS).
static inline int CLibgit2_set_ssl_cert_file(const char *file) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, NULL);
}

/// Caps the object cache (trees) in bytes.
static inline int CLibgit2_set_cache_max_size(ssize_t bytes) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, bytes);
}
#endif
