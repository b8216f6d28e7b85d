-- 0012_passkeys: WebAuthn passkeys, their users' handles and the challenges options calls hand out, and the passkey
-- methods in the assurance of sessions (issue 27). Applied in one transaction by PostgresClient's Migrator; never
-- edit it once applied.

-- A passkey: one WebAuthn credential of a user. credential_id is the authenticator's own id, unique across all
-- users (WebAuthn L3 §7.1 step 22: a registration naming a registered id is refused, so `addPasskey` inserts with
-- ON CONFLICT DO NOTHING and says false). public_key is the COSE_Key exactly as sent; the verifier parses it again
-- for every assertion. sign_count is the authenticator's unsigned 32-bit counter: a use is recorded by one
-- conditional UPDATE on the count it was judged against, so of two racing uses with one counter value one wins.
-- transports holds AuthenticatorTransport values separated by single spaces (PostgresClient binds no arrays);
-- the pattern keeps a value from holding the separator. aaguid is all zero when the authenticator does not say.
CREATE TABLE passkeys (
    id              uuid PRIMARY KEY,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id   bytea NOT NULL UNIQUE CHECK (octet_length(credential_id) BETWEEN 1 AND 1023),
    public_key      bytea NOT NULL CHECK (octet_length(public_key) > 0),
    algorithm       integer NOT NULL CHECK (algorithm IN (-7, -8, -257)),
    sign_count      bigint NOT NULL CHECK (sign_count BETWEEN 0 AND 4294967295),
    backup_eligible boolean NOT NULL,
    backed_up       boolean NOT NULL,
    transports      text NOT NULL DEFAULT '' CHECK (transports ~ '^([a-z0-9-]+( [a-z0-9-]+)*)?$'),
    aaguid          bytea NOT NULL CHECK (octet_length(aaguid) = 16),
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    created_at      timestamptz NOT NULL,
    last_used_at    timestamptz,
    -- BS without BE is not a state an authenticator may report (WebAuthn L3 §6.1.3); the verifier refuses it.
    CHECK (backup_eligible OR NOT backed_up)
);
CREATE INDEX passkeys_user_id ON passkeys (user_id);

-- The WebAuthn user handle of a user (`user.id` in registration options, `userHandle` in assertions): 32 random
-- bytes, never the user's id, so a credential reveals nothing of the account. Made once and kept, also when every
-- passkey is removed: a new passkey of the account carries the same handle.
CREATE TABLE passkey_user_handles (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    handle  bytea NOT NULL UNIQUE CHECK (octet_length(handle) = 32)
);

-- A challenge handed out by an options call: only SHA-256 of its 32 random bytes is stored. Spent by one
-- conditional UPDATE (used_at IS NULL, unexpired, of its purpose and user), so a challenge is spent once, however
-- many requests race for it. A sign-in challenge is bound to no user (the credential names the user); registration
-- and re-authentication are bound to the user whose session asked.
CREATE TABLE passkey_challenges (
    id         uuid PRIMARY KEY,
    purpose    text NOT NULL CHECK (purpose IN ('registration', 'authentication', 'reauthentication')),
    user_id    uuid REFERENCES users (id) ON DELETE CASCADE,
    digest     bytea NOT NULL CHECK (octet_length(digest) = 32),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    CHECK ((purpose = 'authentication') = (user_id IS NULL))
);
-- For the purge, and for the cascade when a user is deleted.
CREATE INDEX passkey_challenges_expires_at ON passkey_challenges (expires_at);
CREATE INDEX passkey_challenges_user_id ON passkey_challenges (user_id) WHERE user_id IS NOT NULL;

-- A session opened or re-authenticated with a passkey names it as RFC 8176 does: `hwk` (a device-bound key) or
-- `swk` (a key that may be synced), and `user` for the authenticator's user verification. The constraints 0011
-- added are replaced under the names PostgreSQL gave them.
ALTER TABLE sessions DROP CONSTRAINT sessions_amr_check,
    ADD CONSTRAINT sessions_amr_check
        CHECK (amr ~ '^(pwd|email|otp|rc|mfa|hwk|swk|user)( (pwd|email|otp|rc|mfa|hwk|swk|user))*$');
ALTER TABLE sessions DROP CONSTRAINT sessions_reauthenticated_with_check,
    ADD CONSTRAINT sessions_reauthenticated_with_check
        CHECK (reauthenticated_with IN ('pwd', 'email', 'otp', 'rc', 'hwk', 'swk'));
