-- 0018_invitations: operators invite people (ARCHITECTURE.md, "Invitations"). Applied in one transaction by
-- PostgresClient's Migrator; never edit it once applied.
--
-- An invitation is an auth_tokens row of purpose invite (SHA-256 of the link, an HMAC of the code, like every other
-- token), for an account made without a password (password_hash '!') and unconfirmed until it is accepted: nothing
-- else tells an invited account apart, and nothing else needs to (sign-in refuses an account without a password;
-- a reset link, which forgot mails to any account, would also set the password and confirm the address).
--
-- Webhooks need no new mapping: creating the account audits sign_up (user.created) and accepting audits
-- email_confirmed (user.email_confirmed); invite_sent and invite_accepted are audit rows only.
ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check;
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check
    CHECK (purpose IN ('confirm', 'reset', 'email_change', 'sign_in', 'invite'));
