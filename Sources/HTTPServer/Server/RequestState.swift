/// Per-request state behind MHD's `con_cls`: created when the request line arrives,
/// released by the request-completed callback (which also runs on client abort).
///
/// Only the MHD thread owning the connection touches it (MHD serializes callbacks per
/// connection); the cross-thread parts, `offload` and `connection`, are themselves synchronized.
final class RequestState {
    let target: String
    let startedAt: ContinuousClock.Instant
    /// The connection's deadline clock (nil only if MHD gave no socket context).
    let connection: ConnectionRecord?
    var sawHeaders = false
    /// Counted by `RequestAdmission` when its headers arrived, before `stop()` began: `stop()` waits for it.
    /// A request that was not is answered 503 `shutting_down` instead of running a handler.
    var admitted = false
    var method = ""
    var clientAddress = ""
    /// Read once, on the first access-handler call, for the checks made there and for the handler.
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// The request is answered with an error without its body: refused on its headers (over a limit, ambiguous
    /// framing), or its chunked body went over `maxBodyBytes` (413). Body bytes that still arrive are dropped.
    var refused = false
    var discardedBytes = 0
    var status = 0
    /// The matched route's pattern, once routed.
    var route: String?
    var offload: OffloadSlot?

    init(target: String, startedAt: ContinuousClock.Instant, connection: ConnectionRecord?) {
        self.target = target
        self.startedAt = startedAt
        self.connection = connection
    }

    /// The decoded path for logs; the query string is cut off since it may hold tokens.
    var logPath: String {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return PercentDecoding.decode(path, plusAsSpace: false)
    }
}
