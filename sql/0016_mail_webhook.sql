-- 0016_mail_webhook: mail handed to the app's backend as a signed `mail.send` webhook instead of SMTP
-- (LATCH_MAIL_TRANSPORT=webhook:<endpoint id>, issue 30). Applied in one transaction by PostgresClient's Migrator;
-- never edit it once applied.
--
-- The outbox stays the one queue of mail: its worker renders a row as always and, with this transport, turns it
-- into a mail.send event for the one endpoint the setting names, in place of an SMTP session. So mail keeps its
-- transaction with the token, its retries and its scrubbing; the webhook queue adds the Standard Webhooks
-- delivery. A mail.send event carries a link and a code (a secret, unlike every other event): it goes to that
-- endpoint alone, never to endpoints subscribed to every type, is never replayed, and its payload is scrubbed to
-- NULL as soon as its delivery ends, delivered or given up, as the outbox scrubs a sent row (security rule 2).

-- The code a mail shows beside its link, so that the mail.send payload can hand it over as a field of its own.
-- Scrubbed with the bodies and the link once the row is sent or given up.
ALTER TABLE outbox ADD COLUMN code text;

-- A mail.send event has no audit row (it is not an account change) and may have no user (mail to an address
-- without an account). message_id is the mail's Message-ID, which the outbox makes the same on every attempt:
-- it makes the hand-over idempotent, so an outbox row handed over twice (its worker died before marking it sent)
-- is still one event with one webhook-id.
ALTER TABLE webhook_events ALTER COLUMN audit_id DROP NOT NULL;
ALTER TABLE webhook_events ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE webhook_events ALTER COLUMN payload DROP NOT NULL;
ALTER TABLE webhook_events ADD COLUMN message_id text UNIQUE;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_mail_shape CHECK (
    CASE WHEN type = 'mail.send'
         THEN message_id IS NOT NULL AND audit_id IS NULL
         ELSE message_id IS NULL AND audit_id IS NOT NULL AND user_id IS NOT NULL AND payload IS NOT NULL
    END);
