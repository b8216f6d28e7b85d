-- 0013_identities: sign-in with a provider's native id_token (Sign in with Apple, issue 28): the provider accounts
-- linked to users, the nonces Latch issues for those sign-ins, and the durable calls to a provider's token
-- endpoints that revoke its tokens when an account is deleted. Applied in one transaction by PostgresClient's
-- Migrator; never edit it once applied.

-- A provider account linked to a user. (provider, subject) names one user, ever: the provider's `sub` is its
-- stable id of the person. client_id is the audience the token was issued to (its token endpoints need it). The
-- address is the one the provider last asserted; given_name and family_name are kept from the first sign-in only
-- (Apple sends them once).
CREATE TABLE identities (
    id               uuid PRIMARY KEY,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider         text NOT NULL CHECK (provider ~ '^[a-z][a-z0-9-]{0,31}$'),
    subject          text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    client_id        text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 255),
    email            text,
    email_verified   boolean NOT NULL,
    is_private_email boolean NOT NULL,
    given_name       text,
    family_name      text,
    created_at       timestamptz NOT NULL,
    last_used_at     timestamptz NOT NULL,
    UNIQUE (provider, subject)
);
CREATE INDEX identities_user_id ON identities (user_id);

-- A nonce handed out by POST /v1/signin/<provider>/nonce: only SHA-256 of its 32 random bytes is stored. Spent by
-- one conditional UPDATE before the token is looked at, so a nonce gets one try, whoever sends it: an id_token
-- captured with its nonce cannot be replayed (a nonce the client makes up and nobody stores protects nothing).
CREATE TABLE sign_in_nonces (
    id         uuid PRIMARY KEY,
    provider   text NOT NULL,
    digest     bytea NOT NULL CHECK (octet_length(digest) = 32),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX sign_in_nonces_expires_at ON sign_in_nonces (expires_at);

-- A call to a provider's token endpoint that must happen even if latchd stops: the exchange of a sign-in's
-- authorization code for a refresh token, then (state `held`) that token kept until the account is deleted, then
-- its revocation. The token is sealed for its row. Workers claim due rows with a lease (FOR UPDATE SKIP LOCKED);
-- a dead worker's row comes back when the lease ends. identity_id is cleared when the identity goes, so a
-- revocation outlives the account it was for. revoke_after: the account was deleted before the code was
-- exchanged, so the token is revoked as soon as it exists.
CREATE TABLE provider_jobs (
    id            uuid PRIMARY KEY,
    state         text NOT NULL CHECK (state IN ('exchange', 'held', 'revoke', 'done', 'failed')),
    provider      text NOT NULL,
    client_id     text NOT NULL,
    identity_id   uuid REFERENCES identities (id) ON DELETE SET NULL,
    sealed_token  bytea,
    revoke_after  boolean NOT NULL DEFAULT false,
    attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    due_at        timestamptz NOT NULL,
    leased_until  timestamptz,
    last_error    text,
    created_at    timestamptz NOT NULL,
    finished_at   timestamptz,
    CHECK ((state IN ('done', 'failed')) = (sealed_token IS NULL))
);
CREATE INDEX provider_jobs_due ON provider_jobs (due_at) WHERE state IN ('exchange', 'revoke');
CREATE INDEX provider_jobs_identity ON provider_jobs (identity_id) WHERE identity_id IS NOT NULL;

-- A provider sign-in is one factor of its own (`fed`, federated): in sessions' amr and as the first factor of a
-- second-factor ticket.
ALTER TABLE sessions DROP CONSTRAINT sessions_amr_check,
    ADD CONSTRAINT sessions_amr_check
        CHECK (amr ~ '^(pwd|email|otp|rc|mfa|hwk|swk|user|fed)( (pwd|email|otp|rc|mfa|hwk|swk|user|fed))*$');
ALTER TABLE mfa_tickets DROP CONSTRAINT mfa_tickets_first_factor_check,
    ADD CONSTRAINT mfa_tickets_first_factor_check CHECK (first_factor IN ('pwd', 'email', 'fed'));
