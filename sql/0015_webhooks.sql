-- 0015_webhooks: account events for the app's backend, delivered per the Standard Webhooks spec (issue 30).
-- Applied in one transaction by PostgresClient's Migrator; never edit it once applied.
--
-- An event must never be lost, nor sent for a change that rolled back, so it is written in the transaction of the
-- change it describes. Every flow already writes its audit row there (hot paths inside their one statement), so a
-- trigger on audit_log makes the event and its deliveries: no flow has to remember webhooks, and the statement
-- counts of the hot paths do not grow. With no endpoint subscribed the trigger costs one look at a tiny table.
--
-- Secrets (rule 8): audit rows hold no token, code, password or hash, and the payload copies only the listed keys
-- of an audit row's detail, so none can reach a payload. Only user.created and user.email_changed carry an
-- address; user.deleted never does. A deleted account's audit rows forget its address, but an event already made
-- keeps its payload (the exact bytes that are signed) until it is delivered or given up and then purged after
-- LATCH_RETENTION, like sent mail.

-- A receiver of events. secret_sealed is the Standard Webhooks signing secret, sealed (AES-256-GCM) as the
-- signing keys are; on rotation the old secret stays in previous_secret_sealed until previous_secret_until, and
-- deliveries are signed with both meanwhile so the receiver can switch without losing any. event_types holds the
-- subscribed types separated by single spaces (PostgresClient binds no arrays), '' for every type. A disabled
-- endpoint gets no new deliveries and its queued ones wait; disabled_reason says why (an operator, or the worker
-- after failing too long).
CREATE TABLE webhook_endpoints (
    id                     uuid PRIMARY KEY,
    url                    text NOT NULL CHECK ((url LIKE 'https://%' OR url LIKE 'http://%') AND length(url) <= 2048),
    description            text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
    event_types            text NOT NULL DEFAULT ''
                           CHECK (event_types ~ '^([a-z_]+\.[a-z_]+( [a-z_]+\.[a-z_]+)*)?$'),
    secret_sealed          bytea NOT NULL CHECK (octet_length(secret_sealed) > 0),
    previous_secret_sealed bytea,
    previous_secret_until  timestamptz,
    disabled_at            timestamptz,
    disabled_reason        text,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    CHECK ((previous_secret_sealed IS NULL) = (previous_secret_until IS NULL))
);

-- One event, made once: its id is the webhook-id header (the receiver's idempotency key) and payload the exact
-- JSON bytes every attempt to every endpoint sends and signs, so a retry is byte for byte the first attempt.
-- No foreign key to users: the event of a deletion outlives the account. audit_id is the audit row it came from,
-- which orders a user's events (audit ids grow in insertion order); created_at is that row's time.
CREATE TABLE webhook_events (
    id         text PRIMARY KEY CHECK (id ~ '^msg_[0-9a-f]{32}$'),
    audit_id   bigint NOT NULL UNIQUE,
    type       text NOT NULL,
    user_id    uuid NOT NULL,
    payload    text NOT NULL,
    created_at timestamptz NOT NULL
);
-- For the per-user order of claims, and for the purge.
CREATE INDEX webhook_events_user_id ON webhook_events (user_id, audit_id);
CREATE INDEX webhook_events_created_at ON webhook_events (created_at);

-- One event for one endpoint. Pending while neither delivered_at nor failed_at is set; due when next_attempt_at
-- has come and no lease holds it. A claim leases it (leased_until) so several workers and daemons share the queue
-- and a dead worker's deliveries come back when the lease ends. attempts counts the attempts made; last_status is
-- the last HTTP status (NULL: no answer) and last_error why it failed.
CREATE TABLE webhook_deliveries (
    event_id        text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL,
    leased_until    timestamptz,
    delivered_at    timestamptz,
    failed_at       timestamptz,
    last_status     integer,
    last_error      text,
    PRIMARY KEY (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
-- For the per-user order (an endpoint's pending deliveries) and the endpoint cascade.
CREATE INDEX webhook_deliveries_pending_endpoint ON webhook_deliveries (endpoint_id)
    WHERE delivered_at IS NULL AND failed_at IS NULL;

-- The webhook type of an audit row, NULL for rows that are no webhook. One audit row makes at most one event.
-- Some types depend on the detail:
-- * An operator's disable is audited as the revocation of every session with reason user_disabled: user.disabled
--   (it implies the sessions' end, so no session.revoked is sent for it).
-- * A provider sign-in of a user with a second factor opens no session (detail mfa_required, no session_id): its
--   mfa_succeeded is the session.created.
-- * The lockout that is recorded is the cap on failures since the last success (rule 4): the failure that reaches
--   it mails a reset link (detail reset_link_sent). The backoff between failures is computed, never audited.
CREATE FUNCTION latch_webhook_type(event text, detail jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN event IN ('sign_up', 'provider_sign_up') THEN 'user.created'
        WHEN event = 'email_confirmed' THEN 'user.email_confirmed'
        WHEN event = 'email_changed' THEN 'user.email_changed'
        WHEN event = 'password_changed' THEN 'user.password_changed'
        WHEN event = 'password_reset' THEN 'user.password_reset'
        WHEN event IN ('account_deleted', 'user_deleted', 'unconfirmed_purged') THEN 'user.deleted'
        WHEN event = 'session_revoked' AND detail ->> 'reason' = 'user_disabled' THEN 'user.disabled'
        WHEN event IN ('sign_in_succeeded', 'email_sign_in_succeeded', 'passkey_signin_succeeded', 'mfa_succeeded')
            THEN 'session.created'
        WHEN event = 'provider_sign_in_succeeded' AND detail ? 'session_id' THEN 'session.created'
        WHEN event = 'session_revoked' THEN 'session.revoked'
        WHEN event = 'refresh_token_reused' THEN 'security.refresh_token_reused'
        WHEN event IN ('sign_in_failed', 'mfa_failed') AND detail ->> 'reset_link_sent' = 'true'
            THEN 'security.lockout'
        WHEN event = 'mfa_activated' THEN 'mfa.enabled'
        WHEN event IN ('mfa_removed', 'mfa_reset') THEN 'mfa.disabled'
        WHEN event = 'passkey_added' THEN 'passkey.added'
        WHEN event = 'passkey_removed' THEN 'passkey.removed'
        WHEN event = 'identity_linked' THEN 'identity.linked'
    END
$$;

-- The event and one delivery per enabled endpoint subscribed to its type, for an audit row that maps to a type
-- and names a user (an event is about an account). The payload is built here once: type, the audit row's time
-- (RFC 3339, UTC, microseconds) and data with the user id, the ids the detail holds among a fixed list, and the
-- address only for user.created (from the detail, else the new account's row: a provider's sign-up audits none)
-- and user.email_changed (new address, and the old one when the detail has it).
CREATE FUNCTION latch_webhook_audit_trigger() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    new_type text := latch_webhook_type(NEW.event, NEW.detail);
    new_id text;
    new_data jsonb;
BEGIN
    IF new_type IS NULL OR NEW.user_id IS NULL THEN
        RETURN NULL;
    END IF;
    -- The common case on a sign-in: no endpoint at all, one look at an empty table.
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints
                   WHERE disabled_at IS NULL
                     AND (event_types = '' OR ' ' || event_types || ' ' LIKE '% ' || new_type || ' %')) THEN
        RETURN NULL;
    END IF;
    new_data := jsonb_strip_nulls(jsonb_build_object(
        'user_id', NEW.user_id::text,
        'session_id', NEW.detail ->> 'session_id',
        'passkey_id', NEW.detail ->> 'passkey_id',
        'identity_id', NEW.detail ->> 'identity_id',
        'factor_id', NEW.detail ->> 'factor_id',
        'provider', NEW.detail ->> 'provider',
        'email', CASE new_type
                     WHEN 'user.created' THEN COALESCE(NEW.detail ->> 'email',
                                                       (SELECT email FROM users WHERE id = NEW.user_id))
                     WHEN 'user.email_changed' THEN NEW.detail ->> 'new_email'
                 END,
        'old_email', CASE WHEN new_type = 'user.email_changed' THEN NEW.detail ->> 'old_email' END));
    new_id := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    INSERT INTO webhook_events (id, audit_id, type, user_id, payload, created_at)
    VALUES (new_id, NEW.id, new_type, NEW.user_id,
            jsonb_build_object(
                'type', new_type,
                'timestamp', to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                'data', new_data)::text,
            NEW.at);
    INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
    SELECT new_id, id, now() FROM webhook_endpoints
    WHERE disabled_at IS NULL
      AND (event_types = '' OR ' ' || event_types || ' ' LIKE '% ' || new_type || ' %');
    -- Delivered at commit only, so a worker woken by it sees the rows.
    PERFORM pg_notify('latch_webhooks', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER audit_log_webhooks AFTER INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION latch_webhook_audit_trigger();
