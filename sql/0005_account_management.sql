-- 0005_account_management: email change, account deletion. Applied in one transaction by PostgresClient's
-- Migrator; never edit it once applied.

-- A change of address is a one-time token mailed to the new address; the address it would set travels with it.
ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check;
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check
    CHECK (purpose IN ('confirm', 'reset', 'email_change'));
ALTER TABLE auth_tokens ADD COLUMN new_email text;
-- The new address's identity (EmailAddress.key), so the change and its race with other accounts use the key.
ALTER TABLE auth_tokens ADD COLUMN new_email_key text;
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_email_change_has_address
    CHECK ((purpose = 'email_change') = (new_email IS NOT NULL AND new_email_key IS NOT NULL));
-- Codes of a change are typed with the new address: find its pending changes by it.
CREATE INDEX auth_tokens_new_email_key ON auth_tokens (new_email_key) WHERE new_email_key IS NOT NULL;

-- A deleted account's last mail ("your account was deleted") forgets its recipient once sent, like the rest of
-- that account's mail history.
ALTER TABLE outbox ADD COLUMN forget_recipient boolean NOT NULL DEFAULT false;
