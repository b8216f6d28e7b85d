import AuthCore
import Foundation
import PostgresClient

extension PostgresAdminStore {
    /// Rows one purge transaction deletes at most: a million expired rows go in short transactions that hold few
    /// row locks and little WAL each, so sign-ins writing the same tables meanwhile never wait on the purge long.
    public static let purgeBatchSize = 5000

    /// How long a purge rests after each full batch, as a multiple of the time that batch took. At 3 it keeps a
    /// database core busy a quarter of the time at most. `make bench` on two cores, where Argon2 needs both,
    /// measured sign-in's p99 at 2.5× its value alone while a purge of a million rows ran flat out, and 2.1× with a
    /// rest as long as each batch; a purge is maintenance and can take four times as long.
    public static let purgeRestFactor = 3.0

    /// Deletes rows that ended more than `retention` before `now`: expired, used or superseded tokens
    /// (second-factor tickets, never-activated enrolments and passkey challenges among them), revoked or expired
    /// sessions and refresh tokens, sent or abandoned mail, rate-limit windows, sign-in failure counters, expired
    /// trusted devices, signing keys revoked or replaced (a later, unrevoked key took over) before the cutoff (their
    /// tokens expired long ago, and the key that signs now is never one of them), and webhook events delivered or
    /// given up before it. The audit log is kept. Then accounts left unconfirmed for longer than `unconfirmedTTL`
    /// are deleted (`unconfirmedAccountsPurge`), so no address stays taken by a sign-up nobody confirmed.
    ///
    /// Each table's rows go in batches of at most `batchSize`, each batch its own transaction, until a batch finds
    /// fewer: every row deleted has ended, so a purge stopped halfway leaves only rows the next one deletes. Signing
    /// keys and webhook events (few rows) and the unconfirmed accounts (one statement with their audit rows) go in
    /// one statement each. After each full batch (more rows may follow) the purge rests `restFactor` times as long
    /// as the batch took, through `rest`, so that it never takes the database from the requests beside it.
    ///
    /// `retention` must exceed the longest rate-limit window and the lockout's forget time, or live counters go.
    /// - Parameters:
    ///   - actor: the operator's name for the purged accounts' audit rows, when known (cron may not say).
    ///   - source: who ran it, for those rows: `latchctl`, or `latchd` for the daemon's own purge job.
    public func purge(
        now: Date, retention: TimeInterval, unconfirmedTTL: TimeInterval, actor: String? = nil,
        source: String = "latchctl", batchSize: Int = PostgresAdminStore.purgeBatchSize,
        restFactor: Double = PostgresAdminStore.purgeRestFactor,
        rest: (Duration) -> Void = { Thread.sleep(forTimeInterval: $0.timeInterval) }
    ) throws -> PurgeResult {
        let cutoff = now.addingTimeInterval(-max(0, retention))
        let unconfirmedAccounts = try unconfirmedAccountsPurge(now: now, ttl: unconfirmedTTL, actor: actor,
                                                               source: source)
        let batch = max(1, batchSize)
        // DELETE has no LIMIT: each batch picks at most `batch` rows by ctid. A row updated meanwhile moves and is
        // skipped by that batch; it still matches and the next batch takes it.
        let clock = ContinuousClock()
        // Each statement in its own transaction without parallel workers or JIT: maintenance must leave the cores
        // to requests. At a million users the scans of sessions and refresh tokens for ended rows ran as a parallel
        // seq scan (two workers besides the backend: every core of a two-core machine) with a JIT compile each.
        func maintenance(_ statement: PostgresQuery) throws -> Int {
            try pool.transaction { connection in
                _ = try connection.query(
                    "SELECT set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)")
                return try connection.query(statement).affectedRows
            }
        }
        func inBatches(_ table: String, _ condition: PostgresQuery) throws -> Int {
            var total = 0
            var deleted = 0
            repeat {
                let started = clock.now
                deleted = try maintenance("""
                    DELETE FROM \(unescaped: table) WHERE ctid = ANY (ARRAY(
                        SELECT ctid FROM \(unescaped: table) WHERE \(condition) LIMIT \(batch)))
                    """)
                total += deleted
                if deleted >= batch && restFactor > 0 { rest(started.duration(to: clock.now) * restFactor) }
            } while deleted >= batch
            return total
        }
        // Spent, replaced or expired links.
        let tokens = try inBatches(
            "auth_tokens", "expires_at < \(cutoff) OR used_at < \(cutoff) OR superseded_at < \(cutoff)")
            + inBatches("reauthentication_codes", "expires_at < \(cutoff)")
            // Second-factor tickets that ended, and enrolments never activated.
            + inBatches("mfa_tickets", "expires_at < \(cutoff) OR used_at < \(cutoff)")
            + inBatches("mfa_factors", "activated_at IS NULL AND expires_at < \(cutoff)")
            // Passkey challenges spent or expired: only the one conditional UPDATE ever reads them again.
            + inBatches("passkey_challenges", "expires_at < \(cutoff) OR used_at < \(cutoff)")
            // Provider sign-in nonces alike, and provider token jobs that finished (their tokens are gone).
            + inBatches("sign_in_nonces", "expires_at < \(cutoff) OR used_at < \(cutoff)")
            + inBatches("provider_jobs", "finished_at < \(cutoff)")
        // Used (rotated) tokens of a live session stay until they expire: presenting one must still be
        // detected as reuse. Before the sessions, so the tokens they cascade to are counted here.
        let refreshTokens = try inBatches("refresh_tokens", """
            expires_at < \(cutoff) OR revoked_at < \(cutoff)
               OR session_id IN (SELECT id FROM sessions WHERE revoked_at < \(cutoff) OR refresh_expires_at < \(cutoff))
            """)
        var result = PurgeResult(
            tokens: tokens,
            sessions: try inBatches("sessions", "revoked_at < \(cutoff) OR refresh_expires_at < \(cutoff)"),
            refreshTokens: refreshTokens,
            mail: try inBatches("outbox", "sent_at < \(cutoff) OR failed_at < \(cutoff)"),
            rateLimitWindows: try inBatches("rate_limits", "window_start < \(cutoff)"),
            signInFailures: try inBatches("signin_failures", "last_failure_at < \(cutoff)"),
            trustedDevices: try inBatches("trusted_devices", "expires_at < \(cutoff)"),
            signingKeys: try maintenance("""
                DELETE FROM signing_keys k
                WHERE k.revoked_at < \(cutoff)
                   OR EXISTS (SELECT 1 FROM signing_keys later
                              WHERE later.revoked_at IS NULL AND later.activates_at > k.activates_at
                                AND later.activates_at < \(cutoff))
                """)
        )
        // Webhook events whose every delivery ended (delivered or given up) before the cutoff, and events that
        // had none left (their endpoints were removed); their deliveries go by cascade. A pending one keeps its
        // event however old: it is still to be sent.
        result.webhookEvents = try maintenance("""
            DELETE FROM webhook_events e
            WHERE e.created_at < \(cutoff)
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                              WHERE d.event_id = e.id
                                AND COALESCE(d.delivered_at, d.failed_at, 'infinity') >= \(cutoff))
            """)
        // Last, so the counts above stay rows that ended; the accounts' own rows go with them uncounted.
        result.unconfirmedUsers = try maintenance(unconfirmedAccounts)
        return result
    }

    /// One statement deleting the accounts never confirmed and created more than `ttl` before `now`, as a deletion
    /// does but without its notice (nobody showed the address was theirs, so nothing is mailed to it): their
    /// links, sessions, refresh tokens and devices go by foreign-key cascade, their unsent mail is dropped (it may
    /// carry a live link), sent mail and their audit rows forget the address, and each gets an
    /// `unconfirmed_purged` row with its id and no address. Its rows affected are those audit rows, one per account.
    ///
    /// Confirmation is what shows an address is its owner's, so a confirmed account is never purged, disabled or
    /// not. An invited account waits for its invitation (`LATCH_INVITE_TTL` may outlive `unconfirmedTTL`): it is
    /// kept while the invitation is live, and goes with the first purge after it ended unaccepted. Only the
    /// account's own rows (by `user_id`) are touched: rate limits and sign-in failures are kept by address, not
    /// account, and go under the retention like any other. The DELETE re-checks
    /// `email_confirmed_at` on a row a confirmation updated meanwhile (READ COMMITTED), so an account confirmed
    /// while the purge runs stays.
    private func unconfirmedAccountsPurge(now: Date, ttl: TimeInterval, actor: String?, source: String) throws
        -> PostgresQuery
    {
        let cutoff = now.addingTimeInterval(-max(0, ttl))
        var detail = ["source": source, "unconfirmed_ttl_seconds": String(Int(ttl.rounded()))]
        detail["actor"] = actor
        return """
            WITH purged AS (
                DELETE FROM users u WHERE u.email_confirmed_at IS NULL AND u.created_at < \(cutoff)
                  AND NOT EXISTS (SELECT 1 FROM auth_tokens t
                                  WHERE t.user_id = u.id AND t.purpose = 'invite' AND t.used_at IS NULL
                                    AND t.superseded_at IS NULL AND t.expires_at > \(now))
                RETURNING id
            ), dropped_mail AS (
                DELETE FROM outbox
                WHERE user_id IN (SELECT id FROM purged) AND sent_at IS NULL AND failed_at IS NULL
            ), forgotten_mail AS (
                UPDATE outbox SET recipient = ''
                WHERE user_id IN (SELECT id FROM purged) AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)
            ), forgotten_audit AS (
                UPDATE audit_log SET detail = detail - 'email' - 'old_email' - 'new_email'
                WHERE user_id IN (SELECT id FROM purged)
            )
            INSERT INTO audit_log (at, user_id, event, ip, detail)
            SELECT \(now), id, \(AuditEventName.unconfirmedPurged.rawValue)::text, NULL,
                   \(try PostgresJSON(encoding: detail))
            FROM purged
            """
    }
}
