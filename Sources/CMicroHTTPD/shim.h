#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call. Every option goes through
   one MHD_OPTION_ARRAY instead, so this single wrapper covers them all. */
static inline struct MHD_Daemon *latch_mhd_start(unsigned int flags, uint16_t port,
                                                 MHD_AcceptPolicyCallback apc, void *apc_cls,
                                                 MHD_AccessHandlerCallback dh, void *dh_cls,
                                                 struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, apc, apc_cls, dh, dh_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* MHD_get_connection_info and MHD_get_daemon_info are variadic too; these typed wrappers
   return only the two facts the server needs. */
static inline const struct sockaddr *latch_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

static inline uint16_t latch_mhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The connection's socket, for the deadline watchdog's shutdown(2) and TCP_INFO; -1 if unknown. */
static inline int latch_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The bytes of the request line and headers, blank line included; 0 before the headers are in. */
static inline size_t latch_mhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* The status of the response queued on the connection, 0 if none. */
static inline unsigned int latch_mhd_queued_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}

/* What MHD_OPTION_NOTIFY_CONNECTION's callback stored for this connection. */
static inline void *latch_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* Options that take a function pointer carry it in the integer slot of MHD_OptionItem;
   the cast is done here, where C defines it, rather than with a bit cast in Swift. */
static inline intptr_t latch_mhd_completed_callback_value(MHD_RequestCompletedCallback callback) {
    return (intptr_t) callback;
}

static inline intptr_t latch_mhd_notify_connection_callback_value(MHD_NotifyConnectionCallback callback) {
    return (intptr_t) callback;
}

typedef void *(*latch_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

static inline intptr_t latch_mhd_uri_log_callback_value(latch_mhd_uri_log_callback callback) {
    return (intptr_t) callback;
}

/* MHD_OPTION_EXTERNAL_LOGGER hands its callback a printf format and a va_list, which Swift cannot format.
   latch_mhd_log_formatter formats the message here and passes the finished text on to a plain callback; the
   option's cls points at a latch_mhd_logger naming that callback and its context, kept alive by the caller for
   as long as the daemon runs. */
typedef void (*latch_mhd_log_callback)(void *context, const char *message);

struct latch_mhd_logger {
    latch_mhd_log_callback callback;
    void *context;
};

static inline void latch_mhd_log_formatter(void *cls, const char *format, va_list arguments) {
    const struct latch_mhd_logger *logger = (const struct latch_mhd_logger *) cls;
    if (logger == NULL || logger->callback == NULL || format == NULL) {
        return;
    }
    /* libmicrohttpd's messages are one short sentence, at most with a URL path in it; longer ones are cut
       rather than allocated for on a thread that may hold libmicrohttpd's locks. */
    char message[1024];
    int length = vsnprintf(message, sizeof message, format, arguments);
    if (length < 0) {
        return;
    }
    logger->callback(logger->context, message);
}

static inline intptr_t latch_mhd_log_formatter_value(void) {
    return (intptr_t) &latch_mhd_log_formatter;
}

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
/* The calling thread's kernel id, for per-thread scheduling priority (glibc hides gettid without _GNU_SOURCE). */
static inline long latch_thread_id(void) {
    return syscall(SYS_gettid);
}
#endif
