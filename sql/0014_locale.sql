-- 0014_locale: the language of each user's mail and pages, and of each queued mail (issue 29). Applied in one
-- transaction by PostgresClient's Migrator; never edit it once applied.

-- The user's language, a BCP 47 tag among the locales latchd has templates for: chosen at sign-up (the body's
-- `locale`, else the request's Accept-Language) or with PATCH /v1/me. NULL for accounts made before, or without a
-- request to take it from (latchctl, a provider's sign-up): they get LATCH_DEFAULT_LOCALE.
ALTER TABLE users ADD COLUMN locale text CHECK (locale ~ '^[A-Za-z0-9]{1,8}(-[A-Za-z0-9]{1,8})*$' AND length(locale) <= 35);

-- The language a queued mail is written in, for its Content-Language header. NULL for mail queued before.
ALTER TABLE outbox ADD COLUMN content_language text;
