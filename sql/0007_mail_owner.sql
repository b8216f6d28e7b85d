-- 0007_mail_owner: every queued mail names the account it belongs to, so deleting an account touches its own mail
-- and nothing else (an address the account once named may belong to someone else). Applied in one transaction by
-- PostgresClient's Migrator; never edit it once applied.

-- No foreign key: the "your account was deleted" notice outlives its account, as audit rows do.
ALTER TABLE outbox ADD COLUMN user_id uuid;

-- Mail queued before this migration: the account whose address it went to, where one has it now.
UPDATE outbox o SET user_id = u.id FROM users u WHERE o.user_id IS NULL AND lower(o.recipient COLLATE "C") = u.email_key;

CREATE INDEX outbox_user ON outbox (user_id) WHERE user_id IS NOT NULL;
