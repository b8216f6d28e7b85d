extension ConfigurationLoader {
    /// `DATABASE_URL`, `LATCH_DATABASE_POOLER` and `LATCH_DATABASE_LISTEN_URL`, checked together.
    struct DatabaseSettings: Equatable {
        var url: String
        var pooler: LatchConfiguration.DatabasePooler
        var listenURL: String?
    }

    /// The pooler comes from `LATCH_DATABASE_POOLER` or from `?pgbouncer=true` on the URL (the convention other
    /// clients, Prisma among them, use); the parameter is taken off the URL, since libpq refuses unknown ones.
    func databaseSettings() throws(ConfigurationError) -> DatabaseSettings {
        guard let given = raw("DATABASE_URL") else {
            throw ConfigurationError(variable: "DATABASE_URL", problem: "is required (postgresql://user@host:5432/db)")
        }
        try Self.checkScheme(given, variable: "DATABASE_URL")
        let (url, flag) = try Self.strippingPgBouncerParameter(from: given)
        let pooler = try pooler(urlSays: flag)
        return DatabaseSettings(url: url, pooler: pooler, listenURL: try listenURL())
    }

    private func pooler(urlSays flag: Bool?) throws(ConfigurationError) -> LatchConfiguration.DatabasePooler {
        let name = "LATCH_DATABASE_POOLER"
        guard let text = raw(name) else { return flag == true ? .transaction : .none }
        guard let pooler = LatchConfiguration.DatabasePooler(rawValue: text.lowercased()) else {
            throw ConfigurationError(variable: name, problem: "must be none or transaction, not \(text)")
        }
        // Two settings that disagree are a mistake either way round: say so instead of picking one.
        if let flag, flag != (pooler == .transaction) {
            throw ConfigurationError(
                variable: name, problem: "is \(pooler.rawValue) but DATABASE_URL says pgbouncer=\(flag)")
        }
        return pooler
    }

    /// A connection that carries LISTEN must reach PostgreSQL itself: through a transaction pooler it would
    /// LISTEN on a server connection that other clients then get.
    private func listenURL() throws(ConfigurationError) -> String? {
        let name = "LATCH_DATABASE_LISTEN_URL"
        guard let url = raw(name) else { return nil }
        try Self.checkScheme(url, variable: name)
        let (stripped, flag) = try Self.strippingPgBouncerParameter(from: url, variable: name)
        if flag == true {
            throw ConfigurationError(
                variable: name, problem: "must be a direct connection to PostgreSQL, not one through PgBouncer")
        }
        return stripped
    }

    private static func checkScheme(_ url: String, variable: String) throws(ConfigurationError) {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw ConfigurationError(variable: variable, problem: "must start with postgresql:// or postgres://")
        }
    }

    /// The URL without its `pgbouncer` query parameter, every other parameter kept as written, and the parameter's
    /// value (nil when absent).
    static func strippingPgBouncerParameter(
        from url: String, variable: String = "DATABASE_URL"
    ) throws(ConfigurationError) -> (url: String, pgbouncer: Bool?) {
        guard let question = url.firstIndex(of: "?") else { return (url, nil) }
        var flag: Bool?
        var kept: [Substring] = []
        for pair in url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false) {
            let key = pair.prefix { $0 != "=" }
            guard key.lowercased() == "pgbouncer" else {
                kept.append(pair)
                continue
            }
            let value = pair.dropFirst(key.count + 1).lowercased()
            switch value {
            case "true": flag = true
            case "false": flag = false
            default:
                throw ConfigurationError(variable: variable, problem: "pgbouncer= must be true or false, not \(value)")
            }
        }
        let base = url[..<question]
        return (kept.isEmpty ? String(base) : base + "?" + kept.joined(separator: "&"), flag)
    }
}
