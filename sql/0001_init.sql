-- 0001_init: Latch's initial schema (DESIGN.md §5).
-- Applied by PostgresClient's Migrator inside one transaction; never edit an applied migration, add 0002_... instead.
--
-- Conventions: every timestamp is timestamptz; secrets are stored only as their SHA-256 (32-byte bytea), never raw;
-- every foreign key has an index so ON DELETE CASCADE and "all rows of this user" lookups stay cheap.

-- Case-insensitive email: 'Ann@X.org' and 'ann@x.org' are one account, enforced by the unique index itself.
CREATE EXTENSION IF NOT EXISTS citext;
-- gen_random_uuid() is built into PostgreSQL 13+, so no pgcrypto.

-- Keeps updated_at honest without trusting every UPDATE to set it; an UPDATE that sets it explicitly wins.
CREATE FUNCTION latch_touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
        NEW.updated_at := now();
    END IF;
    RETURN NEW;
END
$$;

CREATE TABLE users (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- Unique constraint = the index for sign-in lookups by email. 254 is the longest address SMTP can carry.
    email              citext NOT NULL UNIQUE CHECK (length(email) <= 254 AND email LIKE '_%@_%'),
    -- PHC string, e.g. $argon2id$v=19$m=19456,t=2,p=1$salt$hash.
    password_hash      text NOT NULL CHECK (password_hash <> ''),
    email_confirmed_at timestamptz,
    disabled_at        timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER users_touch_updated_at BEFORE UPDATE ON users
    FOR EACH ROW EXECUTE FUNCTION latch_touch_updated_at();

-- One-time confirm/reset tokens. Redemption is a single UPDATE ... WHERE used_at IS NULL AND expires_at > now(),
-- so two concurrent redemptions cannot both succeed.
CREATE TABLE auth_tokens (
    token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text NOT NULL CHECK (purpose IN ('confirm', 'reset')),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- "Revoke every other reset token of the user", "latest confirm token", and the FK cascade.
CREATE INDEX auth_tokens_user_purpose ON auth_tokens (user_id, purpose);
-- Purging expired tokens.
CREATE INDEX auth_tokens_expires_at ON auth_tokens (expires_at);

-- A signed-in device. The bearer access token is looked up by its hash on every authenticated request.
CREATE TABLE sessions (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    access_token_hash bytea NOT NULL UNIQUE CHECK (octet_length(access_token_hash) = 32),
    access_expires_at timestamptz NOT NULL,
    -- Refresh-token rotation family: reuse of a rotated refresh token revokes every session of the family.
    family_id         uuid NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    last_used_at      timestamptz NOT NULL DEFAULT now(),
    revoked_at        timestamptz,
    user_agent        text,
    ip                text
);
-- Global sign-out and password reset revoke all sessions of a user; also serves the FK cascade.
CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE INDEX sessions_family_id ON sessions (family_id);

CREATE TABLE refresh_tokens (
    token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    family_id  uuid NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- Set when rotated; presenting a token with used_at set is reuse, i.e. theft: revoke the family.
    used_at    timestamptz,
    revoked_at timestamptz,
    expires_at timestamptz NOT NULL
);
CREATE INDEX refresh_tokens_family_id ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id);
CREATE INDEX refresh_tokens_user_id ON refresh_tokens (user_id);

-- Transactional outbox: a token and its mail are written in one transaction; workers claim due rows with
-- FOR UPDATE SKIP LOCKED. Once sent (or given up), body and link are scrubbed to NULL so the raw token only ever
-- lives in the recipient's mailbox; recipient, kind and timestamps stay for the record.
CREATE TABLE outbox (
    id              bigserial PRIMARY KEY,
    kind            text NOT NULL,
    recipient       text NOT NULL,
    subject         text NOT NULL,
    text_body       text,
    html_body       text,
    deep_link       text,
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    failed_at       timestamptz,
    last_error      text,
    -- A mail still to be sent must have its bodies.
    CHECK (sent_at IS NOT NULL OR failed_at IS NOT NULL OR (text_body IS NOT NULL AND html_body IS NOT NULL))
);
-- The workers' claim query: due rows not yet sent or abandoned. Small because sent rows leave it.
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

-- Fixed-window counters shared by every instance: key is e.g. 'signin:ip:203.0.113.9' or 'signin:email:<hash>'.
CREATE TABLE rate_limits (
    key          text NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer NOT NULL DEFAULT 0 CHECK (count >= 0),
    PRIMARY KEY (key, window_start)
);
-- Purging old windows.
CREATE INDEX rate_limits_window_start ON rate_limits (window_start);

-- Append-only security history. user_id has no foreign key on purpose: the trail must survive the user's
-- deletion, and failed sign-ins for unknown emails have no user at all.
CREATE TABLE audit_log (
    id      bigserial PRIMARY KEY,
    at      timestamptz NOT NULL DEFAULT now(),
    user_id uuid,
    event   text NOT NULL CHECK (event <> ''),
    ip      text,
    detail  jsonb
);
CREATE INDEX audit_log_user_id_at ON audit_log (user_id, at) WHERE user_id IS NOT NULL;
CREATE INDEX audit_log_at ON audit_log (at);
