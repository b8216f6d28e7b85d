-- 0010_email_sign_in: sign-in by mail and proof of presence (ARCHITECTURE.md, "Sign-in by mail" and
-- "Re-authentication"). Applied in one transaction by PostgresClient's Migrator; never edit it once applied.

-- A sign-in record is an auth_tokens row of purpose sign_in, bound to the app instance that asked: binding is
-- SHA-256 of a secret only that instance holds, and redeeming needs the secret.
ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check;
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check
    CHECK (purpose IN ('confirm', 'reset', 'email_change', 'sign_in'));
ALTER TABLE auth_tokens ADD COLUMN binding bytea CHECK (binding IS NULL OR octet_length(binding) = 32);
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_sign_in_is_bound CHECK ((purpose = 'sign_in') = (binding IS NOT NULL));

-- The request waits in deferred_mail like forgot and resend, with its binding and the asking agent (for the
-- mail's "who asked" line).
ALTER TABLE deferred_mail DROP CONSTRAINT deferred_mail_kind_check;
ALTER TABLE deferred_mail ADD CONSTRAINT deferred_mail_kind_check
    CHECK (kind IN ('password_reset', 'confirmation', 'sign_in'));
ALTER TABLE deferred_mail ADD COLUMN binding bytea CHECK (binding IS NULL OR octet_length(binding) = 32);
ALTER TABLE deferred_mail ADD COLUMN user_agent text;
ALTER TABLE deferred_mail ADD CONSTRAINT deferred_mail_sign_in_is_bound CHECK ((kind = 'sign_in') = (binding IS NOT NULL));

-- When the user proved presence to open the session (access tokens' auth_time), and again on it since.
ALTER TABLE sessions ADD COLUMN authenticated_at timestamptz;
UPDATE sessions SET authenticated_at = created_at;
ALTER TABLE sessions ALTER COLUMN authenticated_at SET NOT NULL;
ALTER TABLE sessions ALTER COLUMN authenticated_at SET DEFAULT now();
ALTER TABLE sessions ADD COLUMN reauthenticated_at timestamptz;

-- The one live re-authentication code of a session (its HMAC, as for other codes). A newer mail replaces it; wrong
-- attempts count here, per session, never against the address.
CREATE TABLE reauthentication_codes (
    session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hmac  bytea NOT NULL CHECK (octet_length(code_hmac) = 32),
    attempts   integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX reauthentication_codes_user_id ON reauthentication_codes (user_id);
CREATE INDEX reauthentication_codes_expires_at ON reauthentication_codes (expires_at);
