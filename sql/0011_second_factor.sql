-- 0011_second_factor: TOTP factors, recovery codes, second-factor tickets and the assurance of sessions
-- (ARCHITECTURE.md, "Second factor"). Applied in one transaction by PostgresClient's Migrator; never edit it once
-- applied.

-- A TOTP factor. Pending (activated_at NULL) until a code proves the authenticator has the secret; a pending one
-- lives until expires_at and for `attempts` below the limit. The secret is sealed with AES-256-GCM under a key
-- derived from LATCH_SECRET_KEY (nonce || ciphertext || tag, user and factor id as associated data): the table
-- alone opens nothing. last_step is the newest RFC 6238 time step accepted: a code is taken only for a greater
-- step, by one conditional UPDATE, so a code is never accepted twice (RFC 6238 §5.2), not even by two racing
-- requests.
CREATE TABLE mfa_factors (
    id            uuid PRIMARY KEY,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type          text NOT NULL DEFAULT 'totp' CHECK (type = 'totp'),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    sealed_secret bytea NOT NULL CHECK (octet_length(sealed_secret) = 12 + 20 + 16),
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz,
    activated_at  timestamptz,
    attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_step     bigint NOT NULL DEFAULT -1,
    last_used_at  timestamptz,
    CHECK ((activated_at IS NULL) = (expires_at IS NOT NULL))
);
CREATE INDEX mfa_factors_user_id ON mfa_factors (user_id);
-- At most one pending enrolment per user: a newer one replaces it.
CREATE UNIQUE INDEX mfa_factors_one_pending ON mfa_factors (user_id) WHERE activated_at IS NULL;

-- Recovery codes: one row each, an HMAC of the code bound to the user (80 random bits; the table alone gives no
-- code). Spent by one conditional UPDATE (used_at IS NULL), so two racing uses of one code: exactly one wins.
CREATE TABLE mfa_recovery_codes (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hmac  bytea NOT NULL CHECK (octet_length(code_hmac) = 32),
    created_at timestamptz NOT NULL,
    used_at    timestamptz,
    PRIMARY KEY (user_id, code_hmac)
);

-- The state between a correct first factor and the second: no session exists yet. ticket_hash is SHA-256 of 256
-- random bits; single use, short-lived, ended by too many wrong codes, by a password change (password_version)
-- or a disabled account. It remembers what the first factor was (amr) and which trusted device vouched, so the
-- second step opens the session and counts failures as the sign-in would have.
CREATE TABLE mfa_tickets (
    ticket_hash      bytea PRIMARY KEY CHECK (octet_length(ticket_hash) = 32),
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    password_version integer NOT NULL,
    first_factor     text NOT NULL CHECK (first_factor IN ('pwd', 'email')),
    email_key        text NOT NULL,
    device_hash      bytea CHECK (device_hash IS NULL OR octet_length(device_hash) = 32),
    ip               text,
    user_agent       text,
    failures         integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
    created_at       timestamptz NOT NULL,
    expires_at       timestamptz NOT NULL,
    used_at          timestamptz
);
CREATE INDEX mfa_tickets_user_id ON mfa_tickets (user_id);
CREATE INDEX mfa_tickets_expires_at ON mfa_tickets (expires_at);

-- How a session was opened (NIST SP 800-63B assurance level, RFC 8176 method values) and how its latest
-- re-authentication was proven: a user with a second factor needs one proven with it for privileged changes.
ALTER TABLE sessions ADD COLUMN aal text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2'));
-- amr: RFC 8176 values separated by single spaces, in the order they were proven (tokens carry them as an array).
ALTER TABLE sessions ADD COLUMN amr text NOT NULL DEFAULT 'pwd'
    CHECK (amr ~ '^(pwd|email|otp|rc|mfa)( (pwd|email|otp|rc|mfa))*$');
ALTER TABLE sessions ADD COLUMN reauthenticated_with text
    CHECK (reauthenticated_with IN ('pwd', 'email', 'otp', 'rc'));
UPDATE sessions SET reauthenticated_with = 'pwd' WHERE reauthenticated_at IS NOT NULL;
