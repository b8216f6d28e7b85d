"""The assurance claims of Latch access tokens (acr, amr, auth_time) as PyJWT reads them, with their JSON types.

Runs Tests/pyjwt/verify_with_pyjwt.py unchanged (the verification another service would do, from latchd's URL
alone) and reads its verdicts back with Python's json, which keeps 1 and 1.0 apart, so the types here are the
token's own:

    python assurance_claims.py --base http://127.0.0.1:PORT --audience latch < tokens (one per line)

Prints one JSON object per token: {"valid": true, "acr": ..., "amr": ..., "auth_time": ..., "iat": ...,
"acr_type": "str", "amr_type": "list[str]", "auth_time_type": "int"} or {"valid": false, "error": ...}.
Used by Tests/LatchIntegrationTests/SecondFactor (AssuranceClaims.swift).
"""
import argparse
import json
import pathlib
import subprocess
import sys

VERIFIER = pathlib.Path(__file__).resolve().parent.parent / "pyjwt" / "verify_with_pyjwt.py"


def type_name(value) -> str:
    """The JSON type of a decoded value, bool apart from int, and a list with its elements' types."""
    if isinstance(value, list):
        return "list[" + ",".join(sorted({type_name(item) for item in value})) + "]"
    return type(value).__name__


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--audience", required=True)
    args = parser.parse_args()

    tokens = sys.stdin.read()
    verified = subprocess.run(
        [sys.executable, str(VERIFIER), "--base", args.base, "--audience", args.audience],
        input=tokens, capture_output=True, text=True, check=False, timeout=60)
    if verified.returncode != 0:
        raise SystemExit(f"verify_with_pyjwt.py exited {verified.returncode}: {verified.stdout}{verified.stderr}")
    for line in verified.stdout.splitlines():
        verdict = json.loads(line)
        if not verdict.get("valid"):
            print(json.dumps({"valid": False, "error": verdict.get("error", "")}), flush=True)
            continue
        claims = verdict["claims"]
        result = {"valid": True}
        for name in ("acr", "amr", "auth_time", "iat"):
            result[name] = claims.get(name)
            result[name + "_type"] = type_name(claims[name]) if name in claims else "missing"
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
