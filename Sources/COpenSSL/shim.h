#include <openssl/rand.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/x509.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>

/*
 * WebAuthn's credential public keys from their raw numbers (COSE keys), through EVP_PKEY_fromdata. Written in C
 * because OSSL_PARAM_BLD and OSSL_PARAM keep the parameter names and buffers they are given by reference until
 * the key is made: a Swift String passed as `const char *` lives only for the one call, so the names would dangle.
 * Each returns a new key the caller frees, or NULL (OpenSSL's error queue says why).
 */
static inline EVP_PKEY *latch_public_key_fromdata(const char *type, OSSL_PARAM *params) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (context != NULL && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    return key;
}

/* A P-256 key from its uncompressed point (0x04 || x || y). */
static inline EVP_PKEY *latch_p256_public_key(const unsigned char *point, size_t length) {
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"P-256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, length),
        OSSL_PARAM_construct_end(),
    };
    return latch_public_key_fromdata("EC", params);
}

/* An RSA key from its modulus and public exponent, big-endian unsigned. */
static inline EVP_PKEY *latch_rsa_public_key(const unsigned char *n, size_t n_length, const unsigned char *e,
                                             size_t e_length) {
    if (n_length > 0x10000 || e_length > 0x10000) return NULL;
    EVP_PKEY *key = NULL;
    OSSL_PARAM *params = NULL;
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, (int)e_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    if (modulus != NULL && exponent != NULL && builder != NULL
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) == 1) {
        params = OSSL_PARAM_BLD_to_param(builder);
    }
    if (params != NULL) key = latch_public_key_fromdata("RSA", params);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_free(modulus);
    BN_free(exponent);
    return key;
}
