/*
 * The HTTP layer's limit: a bare libmicrohttpd server configured like latchd's HTTPServer (internal thread pool of
 * THREADS threads, epoll, keep-alive) that answers every request with latchd's /healthz body. scripts/bench runs it
 * next to latchd so that "/healthz vs hello" is the cost of everything latchd adds on top of libmicrohttpd.
 *
 *   cc -O2 -o hello bench/hello.c $(pkg-config --cflags --libs libmicrohttpd)
 *   ./hello PORT THREADS      serves 127.0.0.1:PORT until SIGINT/SIGTERM
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char body[] = "{\"status\":\"ok\"}";
static int first_call_marker;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **con_cls) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    /* Queueing a response on the first call makes MHD close the connection (keep-alive lost): answer on the second. */
    if (*con_cls == NULL) {
        *con_cls = &first_call_marker;
        return MHD_YES;
    }
    *upload_data_size = 0;
    struct MHD_Response *response =
        MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s PORT THREADS\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]);
    unsigned int threads = (unsigned int)atoi(argv[2]);
    if (port <= 0 || port > 65535 || threads < 1) {
        fprintf(stderr, "hello: bad PORT or THREADS\n");
        return 2;
    }
    /* Pool threads inherit this mask, so only sigwait below sees the signals. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, answer, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "hello: cannot start on 127.0.0.1:%d\n", port);
        return 1;
    }
    int received = 0;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
