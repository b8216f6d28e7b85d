"""Verifies Latch's webhook signatures with code nobody in this project wrote: `standardwebhooks` from PyPI, the
Standard Webhooks spec's own library, as a receiver would run it.

    python verify.py < cases.json

stdin is a JSON list of {"secret": "whsec_...", "headers": {...}, "body": "<base64 of the exact bytes>"}; prints one
JSON object per case and line: {"valid": true} or {"valid": false, "error": "ExceptionName: message"}. Used by
Tests/WebhooksTests (StandardWebhooksVerifier.swift).
"""
import base64
import json
import sys

from standardwebhooks.webhooks import Webhook


def main() -> None:
    for case in json.load(sys.stdin):
        body = base64.b64decode(case["body"])
        try:
            Webhook(case["secret"]).verify(body, case["headers"], json_parse=False)
            print(json.dumps({"valid": True}))
        except Exception as error:  # every refusal is a verdict, not a crash
            print(json.dumps({"valid": False, "error": f"{type(error).__name__}: {error}"}))


if __name__ == "__main__":
    main()
