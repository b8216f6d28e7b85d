-- 0003_account_hardening: one email identity, passwords that end their links, trusted devices.
-- Applied in one transaction by PostgresClient's Migrator; never edit it once applied. See ARCHITECTURE.md
-- ("Account lifecycle") for the rules these columns serve.

-- One canonical identity per address, computed by AuthCore (EmailAddress.key: NFC, ASCII letters lowercased)
-- and used by every lookup and every rate-limit and lockout key. citext folded case by the database's locale
-- (İ, K, ß...) while the keys folded by Swift's rules, so one account could have several lockout counters.
-- Existing rows were stored as EmailAddress.value, whose ASCII-lowercased form is exactly lower() under "C".
ALTER TABLE users ADD COLUMN email_key text;
UPDATE users SET email_key = lower(email::text COLLATE "C");
ALTER TABLE users ALTER COLUMN email_key SET NOT NULL;
ALTER TABLE users ADD CONSTRAINT users_email_key_check CHECK (email_key <> '');
CREATE UNIQUE INDEX users_email_key_unique ON users (email_key);
-- The citext uniqueness was a second, locale-dependent identity rule: email_key is the only one now.
ALTER TABLE users DROP CONSTRAINT users_email_key;

-- Bumped by every password change (reset, operator, change-password). A one-time token records the version it
-- was issued under and redeems only while the user's version is still that one, so no link issued before a
-- password change can confirm or reset anything after it, even one whose insert raced the change.
ALTER TABLE users ADD COLUMN password_version integer NOT NULL DEFAULT 1 CHECK (password_version > 0);
ALTER TABLE auth_tokens ADD COLUMN password_version integer NOT NULL DEFAULT 1;

-- Devices that signed in successfully (OWASP's device cookies): a sign-in presenting one for its own user is
-- judged by the device's own failures, so attempts from elsewhere cannot lock the owner out. Only the token's
-- SHA-256 is stored.
CREATE TABLE trusted_devices (
    token_hash      bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL,
    last_used_at    timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    failures        integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
    last_failure_at timestamptz
);
CREATE INDEX trusted_devices_user_id ON trusted_devices (user_id);
-- Purging devices that were not used for a whole lifetime.
CREATE INDEX trusted_devices_expires_at ON trusted_devices (expires_at);

-- A token spent because something replaced it (a newer sign-up, a password change, a completed confirmation),
-- as opposed to redeemed (used_at): the client is told "replaced, use the newest mail" instead of "already used".
ALTER TABLE auth_tokens ADD COLUMN superseded_at timestamptz;

-- The password version a session was opened under. The bearer check and refresh compare it with the user's,
-- so a password change ends every session opened before it, including one whose insert raced the change
-- (a sign-in whose Argon2 verify overlapped a reset).
ALTER TABLE sessions ADD COLUMN password_version integer NOT NULL DEFAULT 1;
