-- 0008_failures_since_success: the failed sign-ins of an address since its last success, which time does not
-- forget (NIST SP 800-63B: at most 100 consecutive failures). Applied in one transaction by PostgresClient's
-- Migrator; never edit it once applied.

ALTER TABLE signin_failures ADD COLUMN since_success integer NOT NULL DEFAULT 0;
UPDATE signin_failures SET since_success = count;
