-- 0002_store: what LatchStore's ports need beyond 0001 (sign-in lockout, session refresh expiry, outbox scrubbing
-- and leases). Applied in one transaction by PostgresClient's Migrator; never edit it once applied.

-- Consecutive failed sign-ins per email key (EmailAddress.key), for lockout backoff shared by every instance.
-- No foreign key: failures for unknown emails are counted too, so an attacker cannot tell them apart.
CREATE TABLE signin_failures (
    email_key       text PRIMARY KEY CHECK (email_key <> ''),
    count           integer NOT NULL CHECK (count > 0),
    last_failure_at timestamptz NOT NULL
);
-- Purging failures nobody has repeated for a while.
CREATE INDEX signin_failures_last_failure_at ON signin_failures (last_failure_at);

-- A session reports when its refresh token stops refreshing. Kept on the session row (rotation replaces it) so
-- that the bearer lookup on every request stays one index probe plus the users join, without refresh_tokens.
ALTER TABLE sessions ADD COLUMN refresh_expires_at timestamptz;
UPDATE sessions s SET refresh_expires_at = COALESCE(
    (SELECT max(r.expires_at) FROM refresh_tokens r WHERE r.session_id = s.id), s.access_expires_at);
ALTER TABLE sessions ALTER COLUMN refresh_expires_at SET NOT NULL;
-- Purging sessions and refresh tokens that can no longer be used.
CREATE INDEX sessions_refresh_expires_at ON sessions (refresh_expires_at);
CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at);

-- The subject is scrubbed with the bodies and link once a mail is sent or abandoned (DESIGN.md §6.2): templates
-- may put anything in it. A mail still to be sent must have subject and both bodies.
ALTER TABLE outbox ALTER COLUMN subject DROP NOT NULL;
ALTER TABLE outbox DROP CONSTRAINT outbox_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_pending_has_content
    CHECK (sent_at IS NOT NULL OR failed_at IS NOT NULL
           OR (subject IS NOT NULL AND text_body IS NOT NULL AND html_body IS NOT NULL));

-- Leases: a claim moves next_attempt_at to the lease's end, which alone cannot tell an in-flight mail from one
-- waiting for its retry. claimed_at is set by the claim and cleared when the attempt's failure is recorded (it
-- stays on sent rows): claimed_at set with next_attempt_at ahead is a lease in flight, which an operator's retry
-- must not cut short (the mail would go out twice); claimed_at set with the lease over is a worker that died
-- mid-send.
ALTER TABLE outbox ADD COLUMN claimed_at timestamptz;
-- The claim orders by (next_attempt_at, id) for a stable oldest-first order among equal times: index both, so
-- the claim reads the first rows of the index and stops.
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL;
-- Purging sent mail.
CREATE INDEX outbox_sent_at ON outbox (sent_at) WHERE sent_at IS NOT NULL;
