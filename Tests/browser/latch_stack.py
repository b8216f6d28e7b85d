"""A real latchd for the browser test: a fresh database on the test cluster, an SMTP sink, the daemon itself.

Everything is torn down by `close()`, even after a failure half-way through `start()`.
"""
import base64
import email
import email.policy
import glob
import json
import os
import re
import secrets
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_ports(count):
    """Distinct ports, free now, from below the kernel's ephemeral range (scripts/free-port says why)."""
    output = subprocess.run([os.path.join(ROOT, "scripts", "free-port"), str(count)],
                            check=True, capture_output=True, text=True).stdout
    return [int(line) for line in output.split()]


class LatchStack:
    def __init__(self, admin_url, bin_dir):
        self.admin_url = admin_url
        self.bin_dir = bin_dir
        self.work = tempfile.mkdtemp(prefix="latch-browser-")
        self.mail_dir = os.path.join(self.work, "mail")
        self.log_path = os.path.join(self.work, "latchd.log")
        self.database = "latch_browser_" + secrets.token_hex(4)
        self.port, self.sink_port = free_ports(2)
        self.base = f"http://127.0.0.1:{self.port}"
        self.daemon = None
        self.sink_started = False
        self.database_created = False

    def start(self):
        smtp_url = subprocess.run(
            [os.path.join(ROOT, "scripts", "smtp-sink"), "start", self.mail_dir, str(self.sink_port)],
            check=True, capture_output=True, text=True).stdout.strip()
        self.sink_started = True
        self._psql(f'CREATE DATABASE "{self.database}"')
        self.database_created = True
        environment = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_") and k != "DATABASE_URL"}
        environment.update({
            "DATABASE_URL": self._database_url(),
            "LATCH_SECRET_KEY": base64.b64encode(os.urandom(32)).decode(),
            "LATCH_LISTEN": f"127.0.0.1:{self.port}",
            "LATCH_METRICS_LISTEN": "127.0.0.1:0",  # not the fixed default: other daemons may run beside it
            "LATCH_LINK_BASE": self.base,
            "LATCH_APP_SCHEME": "myapp",
            "LATCH_PRODUCT_NAME": "Latch Browser Test",
            "LATCH_SMTP_URL": smtp_url,
            "LATCH_MAIL_FROM": "Latch <no-reply@example.test>",
            "LATCH_MIGRATIONS_DIR": os.path.join(ROOT, "sql"),
            "LATCH_ARGON2_MEMORY_KIB": "64",  # cheap hashing: the parameters are tested elsewhere
            "LATCH_ARGON2_ITERATIONS": "1",
            "LATCH_OUTBOX_POLL": "1s",
        })
        log = open(self.log_path, "wb")
        self.daemon = subprocess.Popen([os.path.join(self.bin_dir, "latchd")], env=environment,
                                       stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.daemon.poll() is not None:
                raise RuntimeError(f"latchd exited with {self.daemon.returncode}:\n{self.log()}")
            try:
                if self.request("GET", "/readyz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("latchd did not become ready:\n" + self.log())

    def close(self):
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.terminate()
            try:
                self.daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
        if self.sink_started:
            subprocess.run([os.path.join(ROOT, "scripts", "smtp-sink"), "stop", self.mail_dir], check=False)
        if self.database_created:
            self._psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)', check=False)

    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def request(self, method, path, body=None, bearer=None):
        """One JSON request; returns (status, decoded body or None)."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data else {}
        if bearer:
            headers["Authorization"] = "Bearer " + bearer
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        return status, (json.loads(raw) if raw else None)

    def wait_for_link(self, recipient, path, timeout=15):
        """The universal link to `path` in a mail the sink received for `recipient` (text part, also in the HTML)."""
        pattern = re.compile(re.escape(self.base + path) + r"\?token=[A-Za-z0-9_-]+")
        seen = set()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name in sorted(glob.glob(os.path.join(self.mail_dir, "*.eml"))):
                if name in seen:
                    continue
                seen.add(name)
                with open(name, "rb") as f:
                    message = email.message_from_bytes(f.read(), policy=email.policy.default)
                if recipient not in str(message["To"]):
                    continue
                text = message.get_body(preferencelist=("plain",)).get_content()
                html = message.get_body(preferencelist=("html",)).get_content()
                match = pattern.search(text)
                if match and match.group(0) in html.replace("&amp;", "&"):
                    return match.group(0)
            time.sleep(0.1)
        raise RuntimeError(f"no mail with a {path} link for {recipient}")

    def sql(self, statement, **variables):
        """Runs `statement` on latchd's database and returns what it printed (unaligned, tuples only). Values go in
        as psql variables, quoted where the statement says `:'name'`, never pasted into the SQL text."""
        arguments = ["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", self._database_url()]
        for name, value in variables.items():
            arguments += ["-v", f"{name}={value}"]
        # psql interpolates variables in a script it reads, not in -c.
        return subprocess.run(arguments, input=statement, check=True, capture_output=True, text=True).stdout.strip()

    def _database_url(self):
        parts = urllib.parse.urlsplit(self.admin_url)
        return urllib.parse.urlunsplit(parts._replace(path="/" + self.database))

    def _psql(self, sql, check=True):
        subprocess.run(["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", self.admin_url, "-c", sql],
                       check=check, capture_output=True)
