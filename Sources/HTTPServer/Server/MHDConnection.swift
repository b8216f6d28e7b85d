import CMicroHTTPD

/// Typed access to one `struct MHD_Connection` during an access-handler call.
struct MHDConnection {
    let pointer: OpaquePointer

    /// The peer's IP as text (IPv4 or IPv6).
    var clientAddress: String {
        SocketAddress.describe(latch_mhd_client_address(pointer))
    }

    /// The request line and headers in bytes, as received; 0 before the headers are in.
    var headerSize: Int {
        latch_mhd_request_header_size(pointer)
    }

    /// The status of the response queued on this connection, nil if none. In the request-completed callback, before
    /// libmicrohttpd drops the response, this tells what it answered by itself.
    var queuedStatus: Int? {
        let status = latch_mhd_queued_status(pointer)
        return status == 0 ? nil : Int(status)
    }

    /// The declared `Content-Length`, if present and numeric.
    var contentLength: UInt64? {
        guard let value = MHD_lookup_connection_value(pointer, MHD_ValueKind.HEADER_KIND, "Content-Length") else {
            return nil
        }
        return UInt64(String(cString: value))
    }

    /// All request headers in arrival order.
    func headers() -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { headersPointer in
            _ = MHD_get_connection_values(pointer, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
                headers.pointee.add(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
                return MHD_Result.YES
            }, headersPointer)
        }
        return headers
    }

    /// Sends `response`. MHD copies the body and adds `Content-Length` itself;
    /// `closeConnection` adds `Connection: close` (used while draining for shutdown).
    func queue(_ response: HTTPResponse, closeConnection: Bool) -> MHD_Result {
        let mhdResponse = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return MHD_Result.NO }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers where !HTTPHeaders.namesMatch(field.name, "Content-Length") {
            _ = MHD_add_response_header(mhdResponse, field.name, field.value)
        }
        if closeConnection {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        return MHD_queue_response(pointer, UInt32(clamping: response.status.rawValue), mhdResponse)
    }

    /// Parks the connection until `OffloadSlot.resume` is called.
    func suspend() {
        MHD_suspend_connection(pointer)
    }
}
