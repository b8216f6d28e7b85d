-- 0006_signing_keys: the keys access tokens are signed with (ES256 JWS). Applied in one transaction by
-- PostgresClient's Migrator; never edit it once applied. See ARCHITECTURE.md ("Signed access tokens").
--
-- A key's state (next, current, previous, retired, revoked) is not stored: AuthCore's SigningKeySchedule derives
-- it from these times, so every instance that reads the rows agrees on it and no job has to promote keys.
-- Changes take a transaction-scoped advisory lock (LatchStore's PostgresSigningKeyStore), so two instances
-- starting together create one first key.
CREATE TABLE signing_keys (
    -- The JWK thumbprint (RFC 7638) of the public key: base64url of a SHA-256.
    kid                    text PRIMARY KEY CHECK (kid ~ '^[A-Za-z0-9_-]{43}$'),
    algorithm              text NOT NULL CHECK (algorithm IN ('ES256')),
    -- The public point, uncompressed: 0x04 || x || y (the JWK's x and y).
    public_key             bytea NOT NULL CHECK (octet_length(public_key) = 65 AND get_byte(public_key, 0) = 4),
    -- The private key (DER) under AES-256-GCM with a key derived from LATCH_SECRET_KEY, which never enters the
    -- database, and the kid as associated data: a copy of the database alone cannot sign a token.
    private_key_ciphertext bytea NOT NULL CHECK (octet_length(private_key_ciphertext) > 16),
    private_key_nonce      bytea NOT NULL CHECK (octet_length(private_key_nonce) = 12),
    -- Published from created_at; signs from activates_at until a later key takes over.
    created_at             timestamptz NOT NULL,
    activates_at           timestamptz NOT NULL CHECK (activates_at >= created_at),
    revoked_at             timestamptz
);
