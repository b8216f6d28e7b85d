import CMicroHTTPD

/// The C entry points handed to libmicrohttpd. They only unwrap pointers and forward
/// to `ServerContext`; kept out of any `main.swift` so they are not main-actor code.
enum MHDCallbacks {
    /// `MHD_OPTION.URI_LOG_CALLBACK`: runs once per request, before headers are parsed,
    /// with the raw request target (query included). Its return value becomes `con_cls`,
    /// holding one retain that `completed` gives back.
    static let uriLog: latch_mhd_uri_log_callback = { cls, uri, connection in
        guard let cls else { return nil }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let target = uri.map { String(cString: $0) } ?? "/"
        let record = connection.flatMap { latch_mhd_socket_context($0) }
            .map { Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue() }
        return Unmanaged.passRetained(context.begin(target: target, connection: record)).toOpaque()
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, version, upload, uploadSize, conCls in
        guard let cls, let connection, let uploadSize, let raw = conCls?.pointee else { return MHD_Result.NO }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        // Method and version matter on the first call only; later calls skip making Strings of them.
        let methodName = state.sawHeaders ? state.method : method.map { String(cString: $0) } ?? ""
        let versionName = state.sawHeaders ? "" : version.map { String(cString: $0) } ?? ""
        return context.handle(
            MHDConnection(pointer: connection), state, method: methodName, version: versionName,
            upload: upload, uploadSize: uploadSize)
    }

    static let completed: MHD_RequestCompletedCallback = { cls, connection, conCls, termination in
        guard let cls, let conCls, let raw = conCls.pointee else { return }
        conCls.pointee = nil
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        context.finish(
            state, completed: termination.rawValue == 0 /* MHD_REQUEST_TERMINATED_COMPLETED_OK */,
            connection: connection.map(MHDConnection.init))
    }

    /// Accept policy: MHD closes the new connection at once when this says no (the budget is full).
    static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
        guard let cls else { return MHD_Result.YES }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        return context.tracker.admitConnection() ? MHD_Result.YES : MHD_Result.NO
    }

    /// `MHD_OPTION.EXTERNAL_LOGGER`, after the shim has formatted the message: runs on whichever thread
    /// libmicrohttpd logs from, possibly holding its locks, so the sink must only write and return.
    static let libraryMessage: latch_mhd_log_callback = { context, message in
        guard let context, let message else { return }
        Unmanaged<LibraryLog>.fromOpaque(context).takeUnretainedValue().deliver(message)
    }

    /// `MHD_OPTION.NOTIFY_CONNECTION`: a connection opened or is closing. Its `ConnectionRecord` lives in the
    /// socket context, holding one retain from STARTED to CLOSED (which MHD reports before closing the socket).
    static let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let socketContext else { return }
        let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        switch code.rawValue {
        case 0:  // MHD_CONNECTION_NOTIFY_STARTED
            guard let connection else { return }
            let record = context.tracker.connectionStarted(socket: latch_mhd_connection_fd(connection))
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        case 1:  // MHD_CONNECTION_NOTIFY_CLOSED
            guard let raw = socketContext.pointee else { return }
            socketContext.pointee = nil
            context.tracker.connectionClosed(Unmanaged<ConnectionRecord>.fromOpaque(raw).takeRetainedValue())
        default:
            break
        }
    }
}
