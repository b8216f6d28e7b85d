import CLibPQ
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libpq calls behind a connection: one `PGconn` plus its prepared-statement cache.
///
/// Not thread-safe by itself; `PostgresConnection` keeps it inside a Mutex so that each libpq call has the
/// connection to itself.
struct LibPQSession {
    private(set) var handle: OpaquePointer?
    /// Prepared statement names by SQL text and parameter types (a statement's types are fixed when prepared).
    private var statements: [String: String] = [:]
    private let statementCapacity: Int
    private var statementCounter = 0
    var savepointCounter = 0
    /// Messages the server sent outside any statement; libpq calls into it while parsing input.
    private let unsolicited = UnsolicitedMessages()

    /// Session settings every connection gets, so timestamps come back in UTC, ISO format, and text is UTF-8.
    private static let sessionOptions = "-c TimeZone=UTC -c DateStyle=ISO,YMD -c IntervalStyle=postgres"
    /// The same through a transaction pooler, as statements after connecting (see `PostgresPoolerMode`).
    /// IntervalStyle is left out: PgBouncer 1.18 does not carry it to the next server session, and this client
    /// reads no interval values.
    private static let pooledSessionSettings = "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'"

    init(url: String, statementCapacity: Int, poolerMode: PostgresPoolerMode = .direct) throws(PostgresError) {
        self.statementCapacity = poolerMode.preparesStatements ? statementCapacity : 0
        // libpq reads both arrays up to a NULL keyword; a later keyword overrides the same one in the URL.
        let settings: [(String, String)] = switch poolerMode {
        case .direct: [("dbname", url), ("options", Self.sessionOptions), ("client_encoding", "UTF8")]
        case .transaction: [("dbname", url), ("client_encoding", "UTF8")]
        }
        let keywords: [String?] = settings.map(\.0) + [nil]
        let values: [String?] = settings.map(\.1) + [nil]
        let connection = CStringArray(keywords).withPointers { keywords in
            CStringArray(values).withPointers { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { throw .connection(message: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.errorMessage(connection)
            PQfinish(connection)
            throw .connection(message: message)
        }
        // libpq prints server NOTICEs to stderr by default; a daemon's stderr is its log, so they are not printed.
        // The receiver only notes a FATAL one: sent to an idle session, it is the server ending that session.
        PQsetNoticeReceiver(connection, { context, result in
            guard let context, let result else { return }
            Unmanaged<UnsolicitedMessages>.fromOpaque(context).takeUnretainedValue().received(result)
        }, Unmanaged.passUnretained(unsolicited).toOpaque())
        self.handle = connection
        if poolerMode == .transaction {
            do {
                _ = try simpleQuery(Self.pooledSessionSettings)
            } catch {
                finish()
                throw error
            }
        }
    }

    mutating func finish() {
        if let handle { PQfinish(handle) }
        handle = nil
        statements.removeAll()
    }

    var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    var transactionStatus: PGTransactionStatusType {
        guard let handle else { return PQTRANS_UNKNOWN }
        return PQtransactionStatus(handle)
    }

    /// Cheap liveness check without a round trip: an idle connection's socket is readable only if the server sent
    /// something unsolicited, which for a pooled connection is its shutdown notice (a FATAL error) or EOF.
    /// Notifications read on the way are kept for `PQnotifies` unless `discardingNotifications` (a pooled
    /// connection someone LISTENed on must not accumulate them forever).
    ///
    /// A pool relies on this to tell "broken before the statement was sent" (safe to run elsewhere) from "broken
    /// while it ran" (may have committed), so it reads until the socket is drained: one read returns the FATAL
    /// message and only the next one sees the EOF behind it.
    func isAliveWhenIdle(discardingNotifications: Bool) -> Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK, !unsolicited.sessionEnded else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        var reads = 0
        while reads < 16, poll(&descriptor, 1, 0) > 0 {
            guard PQconsumeInput(handle) != 0 else { return false }
            reads += 1
        }
        // Parses what was read: a FATAL error reaches the notice receiver, notifications the queue.
        _ = PQisBusy(handle)
        if discardingNotifications {
            while let notification = PQnotifies(handle) { PQfreemem(notification) }
        }
        return PQstatus(handle) == CONNECTION_OK && !unsolicited.sessionEnded
    }

    /// Runs one or more statements without parameters (simple query protocol); returns the last result.
    mutating func simpleQuery(_ sql: String) throws(PostgresError) -> PostgresQueryResult {
        let handle = try connectedHandle()
        return try makeResult(PQexec(handle, sql))
    }

    /// Runs a parameterized statement, preparing it once per connection and reusing the prepared statement; with
    /// `prepare` false, or once the cache is full (capacity 0 through a transaction pooler), as an unnamed
    /// statement parsed, bound and run in one round trip.
    mutating func query(_ sql: String, _ parameters: [PostgresValue], prepare: Bool) throws(PostgresError)
        -> PostgresQueryResult
    {
        let handle = try connectedHandle()
        let key = parameters.reduce(into: sql + "\u{1F}") { $0 += String($1.type.rawValue) + "," }
        guard prepare, statements[key] != nil || statements.count < statementCapacity else {
            return try makeResult(PostgresParameters(parameters).withPointers { types, values in
                PQexecParams(handle, sql, Int32(parameters.count), types, values, nil, nil, 0)
            })
        }
        if let name = statements[key] {
            do {
                return try executePrepared(handle, name, parameters)
            } catch let error where error.sqlState == "26000" {
                // The statement vanished (DISCARD ALL, or a pooler in front): prepare it again below.
                statements[key] = nil
            }
        }
        statementCounter += 1
        let name = "latch_\(statementCounter)"
        _ = try makeResult(PostgresParameters(parameters).withPointers { types, _ in
            PQprepare(handle, name, sql, Int32(parameters.count), types)
        })
        statements[key] = name
        return try executePrepared(handle, name, parameters)
    }

    private func executePrepared(_ handle: OpaquePointer, _ name: String, _ parameters: [PostgresValue])
        throws(PostgresError) -> PostgresQueryResult
    {
        try makeResult(PostgresParameters(parameters).withPointers { _, values in
            PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        })
    }

    private func connectedHandle() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .connection(message: "the connection is closed") }
        guard PQstatus(handle) == CONNECTION_OK else { throw .connection(message: Self.errorMessage(handle)) }
        return handle
    }

    /// Turns a `PGresult` into rows or an error, and frees it.
    private func makeResult(_ result: OpaquePointer?) throws(PostgresError) -> PostgresQueryResult {
        guard let handle else { throw .connection(message: "the connection is closed") }
        guard let result else {
            throw PQstatus(handle) == CONNECTION_OK
                ? .unsupported(Self.errorMessage(handle)) : .connection(message: Self.errorMessage(handle))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY else {
            throw Self.error(from: result, status: status, connection: handle)
        }
        return PostgresResultReader.read(result)
    }

    private static func error(from result: OpaquePointer, status: ExecStatusType, connection: OpaquePointer)
        -> PostgresError
    {
        if status != PGRES_FATAL_ERROR && status != PGRES_NONFATAL_ERROR {
            return .unsupported("result status \(String(cString: PQresStatus(status)))")
        }
        func field(_ code: Character) -> String? {
            guard let ascii = code.asciiValue, let value = PQresultErrorField(result, Int32(ascii)) else { return nil }
            return String(cString: value)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            return .connection(message: field("M") ?? errorMessage(connection))
        }
        guard let sqlState = field("C") else {
            // libpq's own errors (no SQLSTATE) on a healthy connection are client-side misuse.
            return .unsupported(field("M") ?? errorMessage(connection))
        }
        return .server(PostgresServerError(
            sqlState: sqlState, severity: field("V") ?? field("S") ?? "ERROR", message: field("M") ?? "",
            detail: field("D"), hint: field("H"), constraint: field("n")
        ))
    }

    static func errorMessage(_ connection: OpaquePointer) -> String {
        guard let message = PQerrorMessage(connection) else { return "unknown libpq error" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "unknown libpq error" : text
    }
}
