-- 0009_deferred_mail: mails asked for by address alone (forgot password, resend confirmation) wait here between
-- the answer, which writes one row whatever the address, and their resolution, which looks the address up and
-- issues the token and mail (ARCHITECTURE.md, security rule 3). A row lives until it is resolved;
-- the address it holds goes with it. Applied in one transaction by PostgresClient's Migrator; never edit it once
-- applied.

CREATE TABLE deferred_mail (
    id           bigserial PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('password_reset', 'confirmation')),
    email        text NOT NULL,
    ip           text,
    requested_at timestamptz NOT NULL
);
