"""A stand-in for Apple's Sign in with Apple endpoints, on 127.0.0.1, for the integration tests that run latchd
against it. Written with the standard library's http.server, PyJWT and `cryptography` only: it shares no code
with latchd's JWT verification or its client-secret signing (see README.md beside it).

    python fake_issuer.py --port 0 --state-dir DIR [--max-age 3600] [--apple-key PEM_FILE] [--watch-stdin]

Binds 127.0.0.1:PORT (0: a free port), then writes the bound port to DIR/port (atomically: a reader never sees
a partial file) and prints it on standard output. With --watch-stdin it exits when its standard input reaches
end of file, so that a test process that dies cannot leave it running.

Apple's endpoints:
    GET  /auth/keys     the JWKS of the active RSA-2048 keys, Cache-Control: max-age=N; every request counted
    POST /auth/token    form client_id, client_secret, code, grant_type: recorded; answers the token response
                        (refresh_token "rt-<code>", an id_token for client_id) or a configured failure
    POST /auth/revoke   form client_id, client_secret, token, token_type_hint: recorded; 200 with an empty body
                        or a configured failure
The client_secret of both is checked as Apple would: an ES256 JWT signed with the key set by --apple-key or
/control/apple-key, aud https://appleid.apple.com, not expired. The verdict is recorded, not enforced: a test
reads it from /control/calls and decides.

The control API, JSON in and out, for tests only:
    POST /control/mint          {"claims": {...}, "header": {...}, "kid", "alg", "hmac_key", "tamper",
                                 "unknown_kid"} -> {"id_token", "header", "claims"}; see mint()
    POST /control/rotate        {"drop_old": false} -> {"kid": the new key, "kids": the JWKS's}
    GET  /control/keys          {"kids": [...], "current": kid, "pems": {kid: public key PEM}}
    POST /control/down          {"mode": "503" | "drop" | "hang"}: /auth/keys answers 503, closes the connection
                                unanswered, or holds it (up to 60 s) until /control/up
    POST /control/up
    POST /control/max-age       {"max_age": N}
    POST /control/token-status  {"status": 400, "body": {...}?, "times": n?}: the next n (default: all) token
                                calls fail so; status null restores success
    POST /control/revoke-status the same for /auth/revoke
    POST /control/token-claims  {"claims": {...}, "alg", ...}: what /auth/token's id_tokens are minted with
    POST /control/apple-key     {"pem": public key PEM}: the key client secrets are checked with
    POST /control/make-p8       {"install": true} -> {"private_key_pem", "public_key_pem"}: a new Apple-style key
    GET  /control/calls         {"token": [...], "revoke": [...], "jwks_fetches": n}
    POST /control/reset-calls

Standalone helpers, no server:
    python fake_issuer.py --make-p8 PATH            writes a PKCS#8 P-256 key (as Apple's .p8), prints its public key
    python fake_issuer.py --client-secret P8 --team-id T --key-id K --client-id C
                                                    prints an ES256 client secret signed with it, as Apple documents
"""
import argparse
import base64
import copy
import hashlib
import hmac
import json
import os
import secrets
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import RSAAlgorithm

APPLE_ISSUER = "https://appleid.apple.com"
DEFAULT_AUDIENCE = "com.example.app"
# Algorithms PyJWT signs with an RSA key; HS256 and none are built by hand (mint()).
RSA_ALGORITHMS = {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}
HANG_LIMIT = 60


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def compact_json(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def new_kid() -> str:
    return "fake-" + secrets.token_hex(5)


def public_pem(private_key) -> bytes:
    return private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def make_p8():
    """An Apple-style Sign in with Apple key: P-256, PKCS#8 PEM, unencrypted. Returns (private PEM, public PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return private.decode(), public_pem(key).decode()


class Issuer:
    """Everything the handlers share, behind one lock: keys, modes, configured failures and the call log."""

    def __init__(self, max_age: int, apple_key_pem):
        self.lock = threading.Lock()
        self.max_age = max_age
        first = (new_kid(), rsa.generate_private_key(public_exponent=65537, key_size=2048))
        # Every key ever made stays here, so a test can still sign with one rotated out of the JWKS.
        self.keys = {first[0]: first[1]}
        self.active = [first[0]]
        self.down_mode = None
        self.up_event = threading.Event()
        self.up_event.set()
        self.failures = {"token": None, "revoke": None}
        self.token_mint = {}
        self.apple_key = self.load_public_key(apple_key_pem) if apple_key_pem else None
        self.calls = {"token": [], "revoke": []}
        self.jwks_fetches = 0

    @staticmethod
    def load_public_key(pem: str):
        key = serialization.load_pem_public_key(pem.encode())
        if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
            raise ValueError("the Apple key must be a P-256 public key")
        return key

    def jwks(self) -> dict:
        with self.lock:
            keys = []
            for kid in self.active:
                jwk = RSAAlgorithm.to_jwk(self.keys[kid].public_key(), as_dict=True)
                keys.append({"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": jwk["n"], "e": jwk["e"]})
            return {"keys": keys}

    def rotate(self, drop_old: bool) -> dict:
        # Generated outside the lock: RSA key generation takes a while and the JWKS must keep answering.
        kid, key = new_kid(), rsa.generate_private_key(public_exponent=65537, key_size=2048)
        with self.lock:
            self.keys[kid] = key
            self.active = [kid] if drop_old else self.active + [kid]
            return {"kid": kid, "kids": list(self.active)}

    def mint(self, request: dict, audience: str = DEFAULT_AUDIENCE) -> dict:
        """An id_token as Apple shapes it, then broken as asked.

        claims      override the defaults; a null value removes the claim (e.g. {"nonce": null})
        header      extra header fields (e.g. {"typ": "JWT"}); a null value removes one
        kid         the header's kid; a key of that kid signs when there is one (also one rotated out), else the
                    current key signs under a kid the JWKS does not have
        alg         RS256 (default) or another RSA algorithm PyJWT has; "none": no signature; "HS256": HMAC-SHA256
                    keyed with the signing key's public key, PEM (SubjectPublicKeyInfo) or with "hmac_key": "der"
                    its DER bytes: the algorithm-confusion attack. PyJWT refuses to do that, so it is done here.
        tamper      after signing, change a payload claim: true changes sub; a name changes that claim (a string
                    gets "x" appended, a boolean is negated, a number grows by 1); an object sets those claims
        unknown_kid sign with a fresh key that no JWKS ever served, under its own kid
        """
        now = int(time.time())
        claims = {
            "iss": APPLE_ISSUER, "aud": audience, "sub": "000" + secrets.token_hex(8) + "." + secrets.token_hex(16),
            "iat": now, "exp": now + 600, "email": f"user-{secrets.token_hex(4)}@example.test",
            "email_verified": True, "is_private_email": False, "auth_time": now, "nonce_supported": True,
        }
        for name, value in (request.get("claims") or {}).items():
            if value is None:
                claims.pop(name, None)
            else:
                claims[name] = value

        with self.lock:
            current = self.active[-1]
            if request.get("unknown_kid"):
                kid, key = new_kid(), rsa.generate_private_key(public_exponent=65537, key_size=2048)
            else:
                kid = request.get("kid") or current
                key = self.keys.get(kid) or self.keys[current]

        alg = request.get("alg") or "RS256"
        header = {"kid": kid, "alg": alg}
        for name, value in (request.get("header") or {}).items():
            if value is None:
                header.pop(name, None)
            else:
                header[name] = value

        if alg in RSA_ALGORITHMS:
            extra = {k: v for k, v in header.items() if k != "alg"}
            # PyJWT writes typ JWT unless given typ None; Apple's tokens carry kid and alg only.
            extra.setdefault("typ", None)
            token = jwt.encode(claims, key, algorithm=alg, headers=extra)
        elif alg == "none":
            token = b64url(compact_json(header)) + "." + b64url(compact_json(claims)) + "."
        elif alg == "HS256":
            public = key.public_key()
            secret = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo) \
                if request.get("hmac_key") == "der" else public_pem(key)
            signing_input = b64url(compact_json(header)) + "." + b64url(compact_json(claims))
            signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
            token = signing_input + "." + b64url(signature)
        else:
            raise ValueError(f"alg {alg} is not one this fake signs with")

        tamper = request.get("tamper")
        if tamper:
            head, payload, signature = token.split(".")
            changed = json.loads(b64url_decode(payload))
            if isinstance(tamper, dict):
                changed.update(tamper)
            else:
                name = "sub" if tamper is True else tamper
                value = changed.get(name)
                if isinstance(value, bool):
                    changed[name] = not value
                elif isinstance(value, (int, float)):
                    changed[name] = value + 1
                else:
                    changed[name] = f"{value if value is not None else ''}x"
            claims = changed
            token = head + "." + b64url(compact_json(changed)) + "." + signature

        return {"id_token": token, "header": json.loads(b64url_decode(token.split(".")[0])), "claims": claims}

    def check_client_secret(self, secret: str) -> dict:
        """Apple's check of a client secret: ES256 with the team's key, aud the Apple issuer, not expired."""
        verdict = {"client_secret_verified": False, "client_secret_error": None,
                   "client_secret_header": None, "client_secret_claims": None}
        try:
            verdict["client_secret_header"] = jwt.get_unverified_header(secret)
            verdict["client_secret_claims"] = jwt.decode(secret, options={"verify_signature": False})
        except Exception as error:
            verdict["client_secret_error"] = f"{type(error).__name__}: {error}"
            return verdict
        with self.lock:
            key = self.apple_key
        if key is None:
            verdict["client_secret_error"] = "no Apple key set (--apple-key, /control/apple-key, /control/make-p8)"
            return verdict
        try:
            jwt.decode(secret, key, algorithms=["ES256"], audience=APPLE_ISSUER,
                       options={"require": ["iss", "sub", "aud", "iat", "exp"]})
            verdict["client_secret_verified"] = True
        except Exception as error:
            verdict["client_secret_error"] = f"{type(error).__name__}: {error}"
        return verdict

    def failure(self, endpoint: str):
        """The configured failure for this call, if any, consuming one of its `times`."""
        with self.lock:
            failure = self.failures[endpoint]
            if failure is None:
                return None
            if failure.get("times") is not None:
                failure["times"] -= 1
                if failure["times"] <= 0:
                    self.failures[endpoint] = None
            return failure


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeAppleIssuer/1"
    issuer: Issuer = None

    def log_message(self, format, *args):
        sys.stderr.write(f"{time.strftime('%H:%M:%S')} {self.command} {self.path} {format % args}\n")

    def send(self, status: int, body: bytes = b"", content_type: str = "application/json", headers=()):
        self.send_response(status)
        if body or content_type != "application/json":
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, status: int, value, headers=()):
        self.send(status, json.dumps(value).encode(), headers=headers)

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def drop(self):
        # No answer at all: the connection ends before a status line, as when a load balancer drops it.
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        except OSError:
            pass

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        issuer = self.issuer
        if path == "/auth/keys":
            with issuer.lock:
                issuer.jwks_fetches += 1
                mode = issuer.down_mode
            if mode == "hang":
                issuer.up_event.wait(HANG_LIMIT)
                with issuer.lock:
                    mode = issuer.down_mode
            if mode == "drop":
                return self.drop()
            if mode is not None:
                return self.send_json(503, {"error": "service_unavailable"})
            with issuer.lock:
                max_age = issuer.max_age
            return self.send_json(200, issuer.jwks(), headers=[("Cache-Control", f"max-age={max_age}")])
        if path == "/control/calls":
            with issuer.lock:
                answer = {"token": copy.deepcopy(issuer.calls["token"]),
                          "revoke": copy.deepcopy(issuer.calls["revoke"]), "jwks_fetches": issuer.jwks_fetches}
            return self.send_json(200, answer)
        if path == "/control/keys":
            with issuer.lock:
                pems = {kid: public_pem(issuer.keys[kid]).decode() for kid in issuer.active}
                return self.send_json(200, {"kids": list(issuer.active), "current": issuer.active[-1], "pems": pems})
        self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        body = self.read_body()
        if path in ("/auth/token", "/auth/revoke"):
            return self.endpoint(path.rsplit("/", 1)[1], body)
        if path.startswith("/control/"):
            try:
                request = json.loads(body) if body.strip() else {}
                if not isinstance(request, dict):
                    raise ValueError("the body must be a JSON object")
                status, answer = self.control(path[len("/control/"):], request)
            except Exception as error:  # a test's mistake: say what it was rather than drop the connection
                status, answer = 400, {"error": f"{type(error).__name__}: {error}"}
            return self.send_json(status, answer)
        self.send_json(404, {"error": "not_found"})

    def endpoint(self, name: str, body: bytes):
        issuer = self.issuer
        form = {k: v for k, v in urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)}
        call = {"form": form, "content_type": self.headers.get("Content-Type"), "at": time.time()}
        call.update(issuer.check_client_secret(form.get("client_secret", "")))
        failure = issuer.failure(name)
        call["answered"] = failure["status"] if failure else 200
        with issuer.lock:
            issuer.calls[name].append(call)
        if failure:
            if failure.get("status") == "drop":
                return self.drop()
            return self.send_json(failure["status"], failure["body"])
        if name == "revoke":
            return self.send(200)
        with issuer.lock:
            options = copy.deepcopy(issuer.token_mint)
        minted = issuer.mint(options, audience=form.get("client_id") or DEFAULT_AUDIENCE)
        self.send_json(200, {
            "access_token": "at-" + secrets.token_hex(16), "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "rt-" + form.get("code", ""), "id_token": minted["id_token"],
        }, headers=[("Cache-Control", "no-store")])

    def control(self, command: str, request: dict):
        issuer = self.issuer
        if command == "mint":
            return 200, issuer.mint(request)
        if command == "rotate":
            return 200, issuer.rotate(bool(request.get("drop_old")))
        if command == "down":
            mode = str(request.get("mode") or "503")
            if mode not in ("503", "drop", "hang"):
                raise ValueError(f"mode {mode}: 503, drop or hang")
            with issuer.lock:
                issuer.down_mode = mode
                issuer.up_event.clear()
            return 200, {}
        if command == "up":
            with issuer.lock:
                issuer.down_mode = None
                issuer.up_event.set()
            return 200, {}
        if command == "max-age":
            with issuer.lock:
                issuer.max_age = int(request["max_age"])
            return 200, {}
        if command in ("token-status", "revoke-status"):
            status = request.get("status")
            failure = None
            if status is not None:
                if status != "drop" and not (isinstance(status, int) and 100 <= status <= 599):
                    raise ValueError(f"status {status}: an HTTP status, \"drop\" or null")
                default = {400: "invalid_grant", 401: "invalid_client"}.get(status, "server_error")
                failure = {"status": status, "body": request.get("body", {"error": default}),
                           "times": request.get("times")}
            with issuer.lock:
                issuer.failures[command.split("-")[0]] = failure
            return 200, {}
        if command == "token-claims":
            with issuer.lock:
                issuer.token_mint = request
            return 200, {}
        if command == "apple-key":
            key = Issuer.load_public_key(request["pem"])
            with issuer.lock:
                issuer.apple_key = key
            return 200, {}
        if command == "make-p8":
            private, public = make_p8()
            if request.get("install", True):
                with issuer.lock:
                    issuer.apple_key = Issuer.load_public_key(public)
            return 200, {"private_key_pem": private, "public_key_pem": public}
        if command == "reset-calls":
            with issuer.lock:
                issuer.calls = {"token": [], "revoke": []}
                issuer.jwks_fetches = 0
            return 200, {}
        return 404, {"error": f"no control command {command}"}


def sign_client_secret(p8_path: str, team_id: str, key_id: str, client_id: str) -> str:
    with open(p8_path, "rb") as file:
        key = serialization.load_pem_private_key(file.read(), password=None)
    now = int(time.time())
    claims = {"iss": team_id, "iat": now, "exp": now + 3600, "aud": APPLE_ISSUER, "sub": client_id}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": key_id})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--state-dir", help="where the bound port is written (DIR/port)")
    parser.add_argument("--max-age", type=int, default=3600, help="Cache-Control max-age of /auth/keys")
    parser.add_argument("--apple-key", help="PEM file of the P-256 public key client secrets are checked with")
    parser.add_argument("--watch-stdin", action="store_true", help="exit when standard input closes")
    parser.add_argument("--make-p8", metavar="PATH", help="write an Apple-style .p8 key, print its public key")
    parser.add_argument("--client-secret", metavar="P8", help="print a client secret signed with this .p8")
    parser.add_argument("--team-id", default="TEAMID1234")
    parser.add_argument("--key-id", default="KEYID12345")
    parser.add_argument("--client-id", default=DEFAULT_AUDIENCE)
    args = parser.parse_args()

    if args.make_p8:
        private, public = make_p8()
        descriptor = os.open(args.make_p8, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(private)
        print(public, end="")
        return
    if args.client_secret:
        print(sign_client_secret(args.client_secret, args.team_id, args.key_id, args.client_id))
        return
    if not args.state_dir:
        parser.error("--state-dir is required to serve")

    apple_key = None
    if args.apple_key:
        with open(args.apple_key) as file:
            apple_key = file.read()
    Handler.issuer = Issuer(args.max_age, apple_key)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    # Written only once the socket listens, and renamed into place, so a reader that sees the file can connect.
    os.makedirs(args.state_dir, exist_ok=True)
    temporary = os.path.join(args.state_dir, f"port.{os.getpid()}")
    with open(temporary, "w") as file:
        file.write(f"{port}\n")
    os.replace(temporary, os.path.join(args.state_dir, "port"))
    print(port, flush=True)

    if args.watch_stdin:
        def watch():
            while sys.stdin.buffer.read(4096):
                pass
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
