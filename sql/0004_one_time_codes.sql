-- 0004_one_time_codes: the short code beside every mailed link. Applied in one transaction by PostgresClient's
-- Migrator; never edit it once applied.

-- HMAC-SHA256 of the code under a key derived from the server secret (LATCH_SECRET_KEY), bound to the user and
-- purpose: a copy of the database alone cannot test the 10^8 possible codes. NULL for tokens without a code.
ALTER TABLE auth_tokens ADD COLUMN code_hmac bytea CHECK (code_hmac IS NULL OR octet_length(code_hmac) = 32);
-- Wrong codes typed against this record; at the limit it is superseded and the user asks for a new mail.
ALTER TABLE auth_tokens ADD COLUMN code_attempts integer NOT NULL DEFAULT 0 CHECK (code_attempts >= 0);
-- Redemption by code finds the record by its user and HMAC.
CREATE INDEX auth_tokens_user_code ON auth_tokens (user_id, code_hmac) WHERE code_hmac IS NOT NULL;
