"""Checks Latch access tokens the way another service would, with code nobody in this project wrote: PyJWT and
`cryptography` from PyPI. It is given latchd's URL and the audience, nothing else: the issuer and the key set come
from /.well-known/openid-configuration and the JWKS it names, fetched over HTTP.

    python verify_with_pyjwt.py --base http://127.0.0.1:PORT --audience latch < tokens (one per line)

Prints one JSON object per token: {"valid": true, "kid": ..., "header": {...}, "claims": {...}} or
{"valid": false, "error": "ExceptionName: message"}. Used by Tests/LatchIntegrationTests/AccessTokens (PyJWTVerifier.swift).
"""
import argparse
import json
import sys
import urllib.parse
import urllib.request

import jwt


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="where latchd answers (the issuer's host need not resolve)")
    parser.add_argument("--audience", required=True)
    args = parser.parse_args()

    with urllib.request.urlopen(args.base + "/.well-known/openid-configuration", timeout=10) as response:
        discovery = json.load(response)
    issuer = discovery["issuer"]
    if discovery["jwks_uri"] != issuer.rstrip("/") + "/.well-known/jwks.json":
        sys.exit(f"jwks_uri {discovery['jwks_uri']} is not under the issuer {issuer}")
    # The key set is fetched from latchd itself: in tests the issuer's host is not a real one.
    jwks_path = urllib.parse.urlsplit(discovery["jwks_uri"]).path
    keys = jwt.PyJWKClient(args.base + jwks_path, cache_keys=False, cache_jwk_set=False)

    for token in sys.stdin.read().split():
        try:
            key = keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token, key.key, algorithms=["ES256"], audience=args.audience, issuer=issuer, leeway=60,
                options={"require": ["iss", "aud", "sub", "iat", "exp", "jti"]})
            result = {"valid": True, "kid": key.key_id, "header": jwt.get_unverified_header(token), "claims": claims}
        except Exception as error:  # every refusal is an answer here, not a crash
            result = {"valid": False, "error": f"{type(error).__name__}: {error}"}
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
