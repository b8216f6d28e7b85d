import CMicroHTTPD
import Synchronization

/// Everything the C callbacks need, reached through MHD's `cls` pointer.
/// `HTTPServer` owns it and keeps it alive until `MHD_stop_daemon` has returned.
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let onRequestCompleted: (@Sendable (RequestLogEntry) -> Void)?

    /// Requests between their request line and their completion callback.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop()`: answers from then on close their connection.
    let draining = Atomic<Bool>(false)
    /// Offloaded requests whose connection is (or may be) suspended, so that `stop()`
    /// can resume them: stopping MHD with a suspended connection aborts the process.
    private let suspended = Mutex<[ObjectIdentifier: OffloadSlot]>([:])
    private let clock = ContinuousClock()

    init(responder: any HTTPResponder, maxBodyBytes: Int, onRequestCompleted: (@Sendable (RequestLogEntry) -> Void)?) {
        self.responder = responder
        self.maxBodyBytes = maxBodyBytes
        self.onRequestCompleted = onRequestCompleted
    }

    /// URI-log callback: the request line arrived.
    func begin(target: String) -> RequestState {
        inFlight.add(1, ordering: .relaxed)
        return RequestState(target: target, startedAt: clock.now)
    }

    /// One access-handler call. MHD calls it once for the headers, once per body chunk,
    /// and once more when the body is complete (and again after a resume).
    func handle(
        _ connection: MHDConnection, _ state: RequestState, method: String,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if !state.sawHeaders {
            state.sawHeaders = true
            state.method = method
            state.clientAddress = connection.clientAddress
            if let length = connection.contentLength, length > UInt64(maxBodyBytes) {
                // Answering on the first call makes MHD close the connection without
                // reading the body, which is what an oversized upload deserves.
                return reject(connection, state)
            }
            // Answering here would cost keep-alive (MHD adds `Connection: close`).
            return MHD_Result.YES
        }
        if uploadSize.pointee > 0 {
            return accumulate(connection, state, upload: upload, uploadSize: uploadSize)
        }
        if state.overLimit {
            // A chunked body went over the limit; its rest was read and dropped.
            return state.status == 0 ? reject(connection, state) : MHD_Result.YES
        }
        if let slot = state.offload {
            guard let response = slot.takeResponse() else { return MHD_Result.YES }
            return queue(response, on: connection, state)
        }
        return dispatch(connection, state)
    }

    /// Request-completed callback; also runs on abort and on shutdown.
    func finish(_ state: RequestState, completed: Bool) {
        if let slot = state.offload {
            _ = suspended.withLock { $0.removeValue(forKey: ObjectIdentifier(slot)) }
        }
        inFlight.subtract(1, ordering: .relaxed)
        guard state.sawHeaders, let onRequestCompleted else { return }
        let elapsed = clock.now - state.startedAt
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        onRequestCompleted(RequestLogEntry(
            method: state.method, path: state.logPath, status: state.status,
            durationMicroseconds: Int(micros), clientAddress: state.clientAddress, completed: completed))
    }

    /// Resumes every still-suspended connection with a 503, before MHD is stopped.
    /// Returns how many it resumed.
    func abandonSuspended() -> Int {
        let slots = suspended.withLock { Array($0.values) }
        let response = HTTPResponse.error(
            status: .serviceUnavailable, code: "shutting_down", message: "server is shutting down")
        return slots.filter { $0.resume(with: response) }.count
    }

    private func accumulate(
        _ connection: MHDConnection, _ state: RequestState,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        if !state.overLimit, state.body.count + size > maxBodyBytes {
            // Chunked uploads have no Content-Length, so the limit bites as bytes arrive.
            // MHD accepts a response only once the body is complete: drop the rest
            // unbuffered, answer 413 at the end, and cut off a client that keeps sending.
            state.overLimit = true
            state.body = []
        }
        if state.overLimit {
            state.discardedBytes += size
            return state.discardedBytes > maxBodyBytes ? MHD_Result.NO : MHD_Result.YES
        }
        if let upload {
            state.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: size))
        }
        return MHD_Result.YES
    }

    private func reject(_ connection: MHDConnection, _ state: RequestState) -> MHD_Result {
        state.overLimit = true
        let response = HTTPResponse.error(
            status: .payloadTooLarge, code: "payload_too_large",
            message: "request body exceeds \(maxBodyBytes) bytes")
        return queue(response, on: connection, state, close: true)
    }

    private func dispatch(_ connection: MHDConnection, _ state: RequestState) -> MHD_Result {
        var request = HTTPRequest(
            method: HTTPMethod(rawValue: state.method), target: state.target,
            headers: connection.headers(), body: state.body, clientAddress: state.clientAddress)
        state.body = []
        let match = responder.resolve(request)
        request.parameters = match.parameters
        guard let pool = match.pool else {
            return queue(Self.run(match.handler, request), on: connection, state)
        }
        let slot = OffloadSlot(connection: connection.pointer)
        state.offload = slot
        suspended.withLock { $0[ObjectIdentifier(slot)] = slot }
        // Suspend before submitting, so the job can never resume a connection that is
        // not suspended yet.
        connection.suspend()
        let handler = match.handler
        let offloaded = request
        let accepted = pool.submit { slot.resume(with: Self.run(handler, offloaded)) }
        if !accepted {
            var overloaded = HTTPResponse.error(
                status: .serviceUnavailable, code: "overloaded", message: "server is busy, retry shortly")
            overloaded.headers.add(name: "Retry-After", value: "1")
            slot.resume(with: overloaded)
        }
        return MHD_Result.YES
    }

    private func queue(
        _ response: HTTPResponse, on connection: MHDConnection, _ state: RequestState, close: Bool = false
    ) -> MHD_Result {
        state.status = response.status.rawValue
        return connection.queue(response, closeConnection: close || draining.load(ordering: .relaxed))
    }

    /// Runs a handler, mapping thrown errors; unknown errors never show their details.
    static func run(_ handler: HTTPHandler, _ request: HTTPRequest) -> HTTPResponse {
        do {
            return try handler(request)
        } catch let error as any HTTPResponseError {
            return error.response
        } catch {
            return .internalError
        }
    }
}
