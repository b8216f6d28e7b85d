import CMicroHTTPD
import Synchronization

/// Everything the C callbacks need, reached through MHD's `cls` pointer.
/// `HTTPServer` owns it and keeps it alive until `MHD_stop_daemon` has returned.
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let maxTargetBytes: Int
    let maxHeaderBytes: Int
    /// Added to every answer that does not set them itself.
    let defaultHeaders: HTTPHeaders
    let onUnexpectedError: UnexpectedErrorHandler
    let onRequestCompleted: (@Sendable (RequestLogEntry) -> Void)?
    /// libmicrohttpd's own messages; nil when nobody listens (then it is not asked to produce any).
    let libraryLog: LibraryLog?

    /// Requests `stop()` waits for; closed when it begins, after which answers close their connection.
    let admission = RequestAdmission()
    /// Offloaded requests whose connection is suspended, for `stop()` to resume.
    let suspended = SuspendedConnections()
    /// Open connections: the budget, the deadlines, the statistics.
    let tracker: ConnectionTracker
    private let clock = ContinuousClock()

    init(
        responder: any HTTPResponder, configuration: HTTPServerConfiguration,
        onUnexpectedError: @escaping UnexpectedErrorHandler,
        onRequestCompleted: (@Sendable (RequestLogEntry) -> Void)?,
        onLibraryMessage: (@Sendable (String) -> Void)?
    ) {
        self.responder = responder
        self.maxBodyBytes = configuration.maxBodyBytes
        self.maxTargetBytes = configuration.maxTargetBytes
        self.maxHeaderBytes = configuration.maxHeaderBytes
        self.defaultHeaders = configuration.defaultHeaders
        self.onUnexpectedError = onUnexpectedError
        self.tracker = ConnectionTracker(limits: configuration.connectionLimits)
        self.onRequestCompleted = onRequestCompleted
        self.libraryLog = onLibraryMessage.map(LibraryLog.init)
    }

    /// URI-log callback: the request line arrived.
    func begin(target: String, connection: ConnectionRecord?) -> RequestState {
        connection?.requestLineArrived(at: ConnectionTracker.now())
        return RequestState(target: target, startedAt: clock.now, connection: connection)
    }

    /// One access-handler call. MHD calls it once for the headers, once per body chunk,
    /// and once more when the body is complete (and again after a resume).
    func handle(
        _ connection: MHDConnection, _ state: RequestState, method: String, version: String,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if !state.sawHeaders {
            state.sawHeaders = true
            state.admitted = admission.tryAdmit()
            state.connection?.headersArrived(at: ConnectionTracker.now())
            state.method = method
            state.clientAddress = connection.clientAddress
            state.headers = connection.headers()
            if let refusal = refusal(of: connection, state, version: version) {
                // Answering on the first call makes MHD close the connection without reading the body, which is
                // what a refused request deserves: none of its bytes can then be read as a request of its own.
                return refuse(refusal, connection, state)
            }
            // Answering here would cost keep-alive (MHD adds `Connection: close`).
            return MHD_Result.YES
        }
        if uploadSize.pointee > 0 {
            return accumulate(connection, state, upload: upload, uploadSize: uploadSize)
        }
        if state.refused {
            // A chunked body went over the limit; its rest was read and dropped.
            return state.status == 0 ? refuse(tooLarge, connection, state) : MHD_Result.YES
        }
        if let slot = state.offload {
            guard let response = slot.takeResponse() else { return MHD_Result.YES }
            return queue(response, on: connection, state)
        }
        return dispatch(connection, state)
    }

    /// Request-completed callback; also runs on abort and on shutdown.
    func finish(_ state: RequestState, completed: Bool, connection: MHDConnection?) {
        if let slot = state.offload {
            suspended.remove(slot)
        }
        if state.admitted {
            admission.release()
        }
        state.connection?.responseDone(at: ConnectionTracker.now())
        if state.status == 0, let connection, let status = connection.queuedStatus {
            // libmicrohttpd answered by itself, with its own page: a malformed header line or Content-Length, headers
            // beyond its memory (before the handler saw the request), a broken chunk (while reading the body). The
            // request still gets its log line, with libmicrohttpd's status and no method if the handler never ran.
            state.status = status
            if !state.sawHeaders {
                state.clientAddress = connection.clientAddress
            }
        }
        guard state.sawHeaders || state.status != 0, let onRequestCompleted else { return }
        let elapsed = clock.now - state.startedAt
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        onRequestCompleted(RequestLogEntry(
            method: state.method, path: state.logPath, route: state.route, status: state.status,
            durationMicroseconds: Int(micros), clientAddress: state.clientAddress, completed: completed))
    }

    /// Resumes every still-suspended connection with a 503, before MHD is stopped, and
    /// refuses to suspend any more. Returns how many it resumed.
    func abandonSuspended() -> Int {
        suspended.closeAndTakeAll().filter { $0.resume(with: HTTPError.shuttingDown.response) }.count
    }

    private func accumulate(
        _ connection: MHDConnection, _ state: RequestState,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        if !state.refused, state.body.count + size > maxBodyBytes {
            // Chunked uploads have no Content-Length, so the limit bites as bytes arrive.
            // MHD accepts a response only once the body is complete: drop the rest
            // unbuffered, answer 413 at the end, and cut off a client that keeps sending.
            state.refused = true
            state.body = []
        }
        if state.refused {
            state.discardedBytes += size
            return state.discardedBytes > maxBodyBytes ? MHD_Result.NO : MHD_Result.YES
        }
        if let upload {
            state.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size))
        }
        return MHD_Result.YES
    }

    /// Why the request is answered from its headers alone, without running a handler; nil to read it.
    private func refusal(of connection: MHDConnection, _ state: RequestState, version: String) -> HTTPError? {
        // Checked here rather than left to libmicrohttpd, whose own 414 and 431 are bare HTML pages without the
        // default headers; its memory limit is set above these (`libraryMemoryLimit`) so that it lets them through.
        if state.target.utf8.count > maxTargetBytes {
            return .uriTooLong(maxBytes: maxTargetBytes)
        }
        if connection.headerSize > maxHeaderBytes {
            return .headerFieldsTooLarge(maxBytes: maxHeaderBytes)
        }
        if let ambiguous = MessageFraming.refusal(headers: state.headers, version: version) {
            return ambiguous
        }
        if let length = connection.contentLength, length > UInt64(maxBodyBytes) {
            return tooLarge
        }
        return nil
    }

    private var tooLarge: HTTPError { .payloadTooLarge(maxBytes: maxBodyBytes) }

    /// Answers `error` and closes the connection after it: the request's body is not (or not all) read, so the
    /// connection's next bytes could be anything.
    private func refuse(_ error: HTTPError, _ connection: MHDConnection, _ state: RequestState) -> MHD_Result {
        state.refused = true
        state.body = []
        return queue(error.response, on: connection, state, close: true)
    }

    private func dispatch(_ connection: MHDConnection, _ state: RequestState) -> MHD_Result {
        guard state.admitted else {
            // Arrived after stop() began: no handler starts any more.
            return queue(HTTPError.shuttingDown.response, on: connection, state)
        }
        var request = HTTPRequest(
            method: HTTPMethod(rawValue: state.method), target: state.target,
            headers: state.headers, body: state.body, clientAddress: state.clientAddress)
        state.body = []
        let match = responder.resolve(request)
        request.parameters = match.parameters
        state.route = match.route
        guard let pool = match.pool else {
            return queue(match.respond(to: request, unexpected: onUnexpectedError), on: connection, state)
        }
        let slot = OffloadSlot(connection: connection.pointer)
        // Suspend before submitting, so the job can never resume a connection that is
        // not suspended yet.
        state.connection?.requestRead()
        guard suspended.suspend(slot, connection) else {
            // stop() has already resumed the suspended ones for the last time.
            return queue(HTTPError.shuttingDown.response, on: connection, state)
        }
        state.offload = slot
        let offloaded = request
        let unexpected = onUnexpectedError
        let accepted = pool.submit { slot.resume(with: match.respond(to: offloaded, unexpected: unexpected)) }
        if !accepted {
            slot.resume(with: HTTPError.overloaded.response)
        }
        return MHD_Result.YES
    }

    private func queue(
        _ response: HTTPResponse, on connection: MHDConnection, _ state: RequestState, close: Bool = false
    ) -> MHD_Result {
        var response = response
        response.addHeaders(ifMissing: defaultHeaders)
        state.status = response.status.rawValue
        // Read in full (or answered early): from here the response, not the request deadlines, takes the time.
        state.connection?.requestRead()
        return connection.queue(response, closeConnection: close || admission.isClosed)
    }
}
