import CMicroHTTPD

/// The C entry points handed to libmicrohttpd. They only unwrap pointers and forward
/// to `ServerContext`; kept out of any `main.swift` so they are not main-actor code.
enum MHDCallbacks {
    /// `MHD_OPTION.URI_LOG_CALLBACK`: runs once per request, before headers are parsed,
    /// with the raw request target (query included). Its return value becomes `con_cls`,
    /// holding one retain that `completed` gives back.
    static let uriLog: latch_mhd_uri_log_callback = { cls, uri, _ in
        guard let cls else { return nil }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let target = uri.map { String(cString: $0) } ?? "/"
        return Unmanaged.passRetained(context.begin(target: target)).toOpaque()
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, _, upload, uploadSize, conCls in
        guard let cls, let connection, let uploadSize, let raw = conCls?.pointee else { return MHD_Result.NO }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        let methodName = state.sawHeaders ? state.method : method.map { String(cString: $0) } ?? ""
        return context.handle(
            MHDConnection(pointer: connection), state, method: methodName, upload: upload, uploadSize: uploadSize)
    }

    static let completed: MHD_RequestCompletedCallback = { cls, _, conCls, termination in
        guard let cls, let conCls, let raw = conCls.pointee else { return }
        conCls.pointee = nil
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        context.finish(state, completed: termination.rawValue == 0 /* MHD_REQUEST_TERMINATED_COMPLETED_OK */)
    }
}
