"""Known against unknown addresses: the time of each answer, side by side (make timing-oracle).

For every flow that answers alike for registered and unregistered addresses, sends alternating requests for a
registered and an unregistered address and prints each side's median and their ratio. A ratio far from 1 is an
existence oracle: the time alone would tell whether an address has an account. Loopback only; a bounded number of
requests; stops by itself.
"""
import http.client
import json
import statistics
import sys
import time

HOST, PORT = sys.argv[1], int(sys.argv[2])
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 150
PASSWORD = "timing-Passw0rd-x7"
# Sign-in by mail: a binding and its secret (any 43 base64url characters make a well-formed pair for timing).
BINDING = "b" * 43
SECRET = "s" * 43


def post(conn, path, body):
    data = json.dumps(body)
    start = time.perf_counter()
    conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    response.read()
    return time.perf_counter() - start, response.status


def main():
    conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
    known = [f"known{i}@timing.example.com" for i in range(ROUNDS)]
    for email in known:
        _, status = post(conn, "/v1/signup", {"email": email, "password": PASSWORD})
        assert status == 202, status
    flows = [
        ("forgot", "/v1/password/forgot", lambda e: {"email": e}),
        ("resend", "/v1/confirm/resend", lambda e: {"email": e}),
        ("confirm by code", "/v1/confirm", lambda e: {"email": e, "code": "12345678"}),
        ("reset by code", "/v1/password/reset", lambda e: {"email": e, "code": "12345678", "password": "another Passw0rd-x7"}),
        ("sign-in by mail", "/v1/signin/email", lambda e: {"email": e, "binding": BINDING}),
        ("sign-in code", "/v1/signin/email/verify", lambda e: {"email": e, "code": "12345678", "binding_secret": SECRET}),
    ]
    print(f"{'flow':<18}{'known median':>14}{'unknown median':>16}{'ratio':>8}  answers")
    worst = 1.0
    for name, path, body in flows:
        times = {"known": [], "unknown": []}
        statuses = set()
        # Warm up both paths (statement preparation), then alternate so load drifts hit both sides alike.
        for email in (known[0], "warmup@nobody.example.com"):
            post(conn, path, body(email))
        for i in range(ROUNDS):
            for side, email in (("known", known[i]), ("unknown", f"nobody{i}-{name[:3]}@timing.example.com")):
                elapsed, status = post(conn, path, body(email))
                times[side].append(elapsed)
                statuses.add(status)
        k, u = statistics.median(times["known"]), statistics.median(times["unknown"])
        ratio = k / u
        worst = max(worst, ratio, 1 / ratio)
        print(f"{name:<18}{k * 1000:>12.2f}ms{u * 1000:>14.2f}ms{ratio:>8.2f}  {sorted(statuses)}")
    print(f"target: every ratio within 0.9-1.1 (sign-in by mail: 0.8-1.25); worst {worst:.2f}")


main()
