#ifndef CLIBSSL_SHIM_H
#define CLIBSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* The witness client's TLS (Sources/LedgerWitness/HTTP/TLSStream.swift). These are function-like macros,
   which Swift cannot import, wrapped as functions. */

/// SNI: the server name sent in the ClientHello (`SSL_set_tlsext_host_name`).
static inline long CLibSSL_set_server_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

/// TLS 1.2 at least (`SSL_CTX_set_min_proto_version`).
static inline long CLibSSL_CTX_require_tls12(SSL_CTX *context) {
    return SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// A peer that closes without close_notify ends the stream like one that sends it
/// (`SSL_OP_IGNORE_UNEXPECTED_EOF`): the answer is framed by HTTP and its cosignature verified.
static inline void CLibSSL_CTX_ignore_unexpected_eof(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
}

/// An empty memory BIO reads as end of stream instead of "retry" (`BIO_set_mem_eof_return(bio, 0)`).
static inline long CLibSSL_BIO_mark_end_of_stream(BIO *bio) {
    return BIO_set_mem_eof_return(bio, 0);
}
#endif
