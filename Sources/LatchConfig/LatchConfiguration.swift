import AuthCore
import DeepLinkRouting
import Foundation

/// Everything latchd and latchctl are configured with, parsed and validated once at start
/// (see `ConfigurationLoader`). Nothing reads the environment after that.
public struct LatchConfiguration: Sendable, Equatable {
    /// Where the HTTP server listens.
    public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: UInt16
        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// How mail leaves the daemon.
    public enum MailTransportSetting: Sendable, Equatable {
        /// A real SMTP server (`smtp://`, `smtps://`, optional user:password and `?starttls=required`).
        case smtp(URL)
        /// Development: `.eml` files in a directory, and the deep link printed on the console.
        case files(directory: String)
        /// Each mail handed to the app's backend as a signed `mail.send` event for this webhook endpoint.
        case webhook(endpointID: UUID)
    }

    public struct Argon2Setting: Sendable, Equatable {
        public var memoryKiB: Int
        public var iterations: Int
        public var parallelism: Int
    }

    /// How long a request may take to arrive, from its first byte; the idle timeout restarts with every byte,
    /// these do not.
    public struct RequestDeadlines: Sendable, Equatable {
        public var headers: TimeInterval
        public var body: TimeInterval
    }

    public struct Outbox: Sendable, Equatable {
        public var workers: Int
        public var maxAttempts: Int
        public var backoffBase: TimeInterval
        public var backoffCap: TimeInterval
        public var pollInterval: TimeInterval
        /// How long a claimed mail is held by its worker before another may take it (after a crash).
        public var lease: TimeInterval
        /// The beat of the resolver of mail asked for by address (LatchApp's `PeriodicJob`).
        public var deferredMailInterval: TimeInterval
    }

    /// Webhook delivery (`LATCH_WEBHOOK*`). The networks stay text here: LatchApp parses them with the address
    /// policy they feed (`Webhooks`), so a typo is reported there, at start, naming the variable.
    public struct Webhooks: Sendable, Equatable {
        /// Delivery threads; 0 turns delivery off (events still queue, for another daemon or later).
        public var workers: Int = 1
        /// `LATCH_WEBHOOKS_ALLOW_HTTP=loopback`: http:// to loopback hosts, for development and tests.
        public var allowsLoopbackHTTP: Bool = false
        /// `LATCH_WEBHOOKS_ALLOW_NETWORKS` as given: comma-separated CIDRs.
        public var allowedNetworks: String = ""
        /// `LATCH_WEBHOOK_LEASE`, seconds: how long a claimed delivery is held before another worker may take it.
        /// Short brings a crashed daemon's deliveries back sooner, but a post may then outlast its lease and the
        /// attempt be made twice (same webhook-id).
        public var lease: TimeInterval = 60

        public init(workers: Int = 1, allowsLoopbackHTTP: Bool = false, allowedNetworks: String = "",
                    lease: TimeInterval = 60) {
            self.workers = workers
            self.allowsLoopbackHTTP = allowsLoopbackHTTP
            self.allowedNetworks = allowedNetworks
            self.lease = lease
        }
    }

    /// Between latchd and PostgreSQL: nothing (or a session pooler), or a pooler in transaction mode, which hands
    /// each transaction to any server connection, so latchd keeps no state in a session.
    public enum DatabasePooler: String, Sendable, Equatable {
        case none
        case transaction
    }

    /// libpq URL, without the `pgbouncer` parameter (libpq refuses parameters it does not know).
    public var databaseURL: String
    /// `LATCH_DATABASE_POOLER`, or `transaction` when `DATABASE_URL` says `?pgbouncer=true`.
    public var databasePooler: DatabasePooler = .none
    /// `LATCH_DATABASE_LISTEN_URL`: a direct connection for LISTEN, which a transaction pooler cannot carry; nil:
    /// LISTEN on `databaseURL`, or, through a transaction pooler, the workers poll.
    public var databaseListenURL: String? = nil
    /// `LATCH_SECRET_KEY`: never in the database; one-time codes and signing keys derive their keys from it.
    public var serverSecret: ServerSecret
    public var listen: ListenAddress
    /// Where `/metrics` is served, apart from the API; nil: nowhere. The API's port never serves it, because its
    /// counters (mail sent, say) would tell anyone whether an address has an account.
    public var metricsListen: ListenAddress?
    /// Where `/admin/v1` is served; nil: nowhere. Never the API's port. Equal to `metricsListen` (the default),
    /// one private listener serves both.
    public var adminListen: ListenAddress?
    /// libmicrohttpd's thread pool.
    public var threads: Int
    /// Threads that run password hashing; requests beyond them queue.
    public var hashWorkers: Int
    public var databasePoolSize: Int
    public var connectionTimeout: TimeInterval
    public var requestDeadlines: RequestDeadlines
    /// Concurrent HTTP connections; more are refused at once (lowered at start to fit the open-file limit).
    public var maxConnections: Int
    /// Ignored behind a proxy (`trustProxy`): every connection then comes from the proxy's address.
    public var perIPConnectionLimit: Int
    /// Take the client address from `X-Forwarded-For` (only behind a load balancer that sets it).
    public var trustProxy: Bool
    public var migrationsDirectory: String

    public var mailTransport: MailTransportSetting
    public var mailFrom: String
    public var productName: String
    /// The operator's mail templates (`LATCH_TEMPLATES_DIR`), file by file over the shipped ones; nil: shipped only.
    public var templatesDirectory: String? = nil
    /// The language of mail to users without one of the template languages (`LATCH_DEFAULT_LOCALE`).
    public var defaultLocale: String = "en"
    /// Apple app IDs (`TEAMID.bundle.id`) for apple-app-site-association.
    public var appleAppIDs: [String]
    public var androidPackage: String?
    public var androidCertFingerprints: [String]

    /// TTLs, rate limits, lockout and the deep-link configuration (`LATCH_LINK_BASE`, `LATCH_APP_SCHEME`).
    public var auth: AuthConfiguration
    public var argon2: Argon2Setting
    public var outbox: Outbox
    public var webhooks: Webhooks = Webhooks()
    /// How long expired tokens, ended sessions and sent mail are kept before the purge deletes them.
    public var retention: TimeInterval
    /// How long an account may stay unconfirmed before the purge deletes it, so an address nobody confirmed is
    /// free again. Never shorter than the confirmation link's lifetime (the loader refuses it).
    public var unconfirmedTTL: TimeInterval
    /// How often latchd runs the purge itself (`latchctl tokens purge` does the same at once); nil: never
    /// (`LATCH_PURGE_INTERVAL=off`, for deployments that schedule `latchctl tokens purge` instead).
    public var purgeInterval: TimeInterval?
    /// The key latchd signs Apple's client secrets with, to revoke users' Apple tokens when their accounts are
    /// deleted; nil when `LATCH_APPLE_TEAM_ID`, `LATCH_APPLE_KEY_ID` and `LATCH_APPLE_PRIVATE_KEY_FILE` are unset.
    public var appleClientSecret: AppleClientSecretKey? = nil

    /// An Apple "Sign in with Apple" private key (a .p8 file) and the ids it signs client secrets under.
    public struct AppleClientSecretKey: Sendable, Equatable {
        public var teamID: String
        public var keyID: String
        /// The PKCS#8 PEM text of the P-256 key, read at start.
        public var privateKeyPEM: String
    }
}
