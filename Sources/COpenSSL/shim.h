#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// Thin shim over the system OpenSSL (apt: libssl-dev), for the WebSocket client's wss:// transport.
// Only Networking imports it. The module map links ssl and crypto itself: SwiftPM warns about the
// flags pkg-config would add.

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// Macros Swift cannot import, as functions.

// SNI. RFC 6066 forbids IP literals as server names, so the caller passes only DNS names.
static inline int cb_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

// TLS 1.0 and 1.1 are deprecated (RFC 8996); no broker needs them.
static inline int cb_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

// Partial writes let the writer keep its own buffer and offset; a moving buffer lets it retry a write
// from a different address after the outbox array was reallocated.
static inline long cb_ssl_set_partial_write_modes(SSL *ssl) {
    return SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

// The name the certificate must match. An IP literal is checked against the certificate's IP
// addresses, anything else against its DNS names (wildcards allowed, partial wildcards not).
static inline int cb_ssl_expect_peer_name(SSL *ssl, const char *name) {
    X509_VERIFY_PARAM *parameters = SSL_get0_param(ssl);
    if (X509_VERIFY_PARAM_set1_ip_asc(parameters, name) == 1) return 1;
    X509_VERIFY_PARAM_set_hostflags(parameters, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    return X509_VERIFY_PARAM_set1_host(parameters, name, 0);
}

#endif
