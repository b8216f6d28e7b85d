-- 0017_admin_api: keys for the admin HTTP API on the private listener, and the indexes its user listing pages
-- through (issue 31). Applied in one transaction by PostgresClient's Migrator; never edit it once applied.
--
-- A key is `latch_admin_<id>_<secret>`: the id is public (logs, audit rows and `latchctl apikeys list` name it),
-- the secret is 32 random bytes shown once by latchctl and stored only as SHA-256, like every other secret at
-- rest (security rule 2). A key is refused once expires_at has passed or revoked_at is set; rows are never
-- deleted, so an audit row's key id can always be looked up. scopes holds the key's scopes separated by single
-- spaces, sorted (PostgresClient binds no arrays). last_used_at is written at most once a minute per key, so a
-- busy key costs no write per call.
CREATE TABLE admin_api_keys (
    id           text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
    name         text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
    scopes       text NOT NULL CHECK (scopes ~ '^[a-z]+:[a-z]+( [a-z]+:[a-z]+)*$'),
    secret_hash  bytea NOT NULL CHECK (octet_length(secret_hash) = 32),
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    last_used_at timestamptz,
    CHECK (expires_at IS NULL OR expires_at > created_at)
);

-- GET /admin/v1/users pages by (created_at, id) ascending: each page is one index range scan from the cursor.
CREATE INDEX users_created_at_id ON users (created_at, id);

-- email_prefix is `email_key LIKE '<escaped prefix>%'`. The unique index on email_key uses the database's
-- collation, which a LIKE cannot use unless it is C; text_pattern_ops compares bytes, so the prefix is a range.
CREATE INDEX users_email_key_prefix ON users (email_key text_pattern_ops);
