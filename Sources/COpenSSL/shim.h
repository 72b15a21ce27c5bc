#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>

/// `OPENSSL_free` is a function-like macro, which Swift cannot import.
static inline void COpenSSL_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
#endif
