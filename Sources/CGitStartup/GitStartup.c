// libgit2's start-up without the system's certificate bundle.
//
// Debian's libgit2 is built on mbedTLS, and `git_libgit2_init` parses every certificate of
// /etc/ssl/certs/ca-certificates.crt for its HTTPS transport (~4 ms, ~54 M instructions, on every run of
// every command). onym-ledger never opens a remote: it reads and writes local repositories only. This file
// defines `mbedtls_x509_crt_parse_file`, which the executable then exports ahead of libmbedx509's (a
// shared library's undefined symbol resolves to the executable's definition first), and refuses the parse
// only while `CGitStartup_skipDefaultCertificates(1)` is in force — around `git_libgit2_init`, in
// `GitLibrary`. Any other call, a certificate location set later through `git_libgit2_opts`, reaches
// mbedTLS's own function. A libgit2 built on OpenSSL never calls it: nothing changes there.
// docs/DECISIONS.md, "libgit2 starts without the certificate bundle".

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

#include "CGitStartup.h"

/// mbedTLS's `MBEDTLS_ERR_X509_FILE_IO_ERROR`: what it returns for a file it cannot read.
static const int fileUnreadable = -0x2900;

static atomic_int skipping = 0;
static atomic_int refused = 0;

void CGitStartup_skipDefaultCertificates(int on) { atomic_store(&skipping, on); }

int CGitStartup_refusals(void) { return atomic_load(&refused); }

struct mbedtls_x509_crt;

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path) {
    if (atomic_load(&skipping)) {
        atomic_fetch_add(&refused, 1);
        return fileUnreadable;
    }
    typedef int (*Parse)(struct mbedtls_x509_crt *, const char *);
    Parse parse = (Parse)dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_file");
    return parse == NULL ? fileUnreadable : parse(chain, path);
}
