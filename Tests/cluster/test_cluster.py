"""The production shape under test (Tests/cluster/run starts it with scripts/cluster): three latchd instances behind
HAProxy, PostgreSQL through PgBouncer. Every request goes through the balancer, which spreads them over the
instances, so each rule below holds only if it is kept in PostgreSQL rather than in one process.

Standard library only; the environment (LATCH_CLUSTER_*) comes from the cluster's env file.
"""
import concurrent.futures
import email
import email.policy
import glob
import json
import os
import re
import subprocess
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid

ENV = os.environ
URL = ENV["LATCH_CLUSTER_URL"]
DIR = ENV["LATCH_CLUSTER_DIR"]
ROOT = ENV["LATCH_ROOT"]
PASSWORD = "cluster test passphrase 7"


def request(method, path, body=None, token=None, timeout=15):
    """(status, parsed JSON or text). Connection failures are answered as status 0."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(URL + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, _parse(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _parse(error.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        return 0, str(error)


def _parse(raw):
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")


def code(body):
    return body.get("error", {}).get("code") if isinstance(body, dict) else None


def address(tag):
    return f"{tag}-{uuid.uuid4().hex[:12]}@example.com"


def mails_to(recipient):
    """The messages the SMTP sink holds for recipient."""
    found = []
    for path in glob.glob(os.path.join(ENV["LATCH_CLUSTER_SMTP_DIR"], "*.eml")):
        with open(path, "rb") as handle:
            message = email.message_from_binary_file(handle, policy=email.policy.default)
        if recipient.lower() in str(message.get("To", "")).lower():
            found.append(message)
    return found


def confirm_token(recipient, within=60):
    deadline = time.time() + within
    while time.time() < deadline:
        for message in mails_to(recipient):
            body = message.get_body(preferencelist=("plain",))
            match = re.search(r"confirmAuth\?token=([A-Za-z0-9_-]+)", body.get_content() if body else "")
            if match:
                return match.group(1)
        time.sleep(0.2)
    raise AssertionError(f"no confirmation mail reached {recipient}")


def signed_up_and_confirmed(tag):
    recipient = address(tag)
    status, body = request("POST", "/v1/signup", {"email": recipient, "password": PASSWORD})
    assert status == 202, (status, body)
    status, body = request("POST", "/v1/confirm", {"token": confirm_token(recipient)})
    assert status == 200, (status, body)
    return recipient, body


def served_by_instances(route):
    """How many instances answered requests of route (their own /metrics)."""
    count = 0
    for n in (1, 2, 3):
        port = ENV[f"LATCH_CLUSTER_METRICS_PORT_{n}"]
        try:
            text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
        except OSError:
            continue
        if re.search(r'latch_http_requests_total\{[^}]*route="' + re.escape(route) + r'"[^}]*\} [1-9]', text):
            count += 1
    return count


def cluster(*arguments):
    subprocess.run([os.path.join(ROOT, "scripts", "cluster"), *arguments], check=True, timeout=180)


class AcrossInstances(unittest.TestCase):
    def test_a_rate_limit_counts_every_instances_requests(self):
        recipient = address("limit")
        self.assertEqual(request("POST", "/v1/signup", {"email": recipient, "password": PASSWORD})[0], 202)
        # Typed codes per address: LATCH_RATE_CODE_EMAIL=10/1h. Wrong codes, spread over the three instances.
        statuses = [request("POST", "/v1/confirm", {"email": recipient, "code": "00000000"})[0] for _ in range(13)]
        self.assertNotIn(429, statuses[:10], statuses)
        self.assertEqual(statuses[10:], [429, 429, 429], statuses)
        self.assertGreaterEqual(served_by_instances("/v1/confirm"), 2)

    def test_the_lockout_holds_on_every_instance(self):
        recipient, _ = signed_up_and_confirmed("lockout")
        # LATCH_LOCKOUT_THRESHOLD=4: four failures through the balancer, then the right password waits everywhere.
        for _ in range(4):
            self.assertEqual(request("POST", "/v1/signin", {"email": recipient, "password": "wrong password 1"})[0], 401)
        for _ in range(3):
            status, body = request("POST", "/v1/signin", {"email": recipient, "password": PASSWORD})
            self.assertEqual(status, 429, body)

    def test_a_link_works_once_however_many_instances_race_for_it(self):
        recipient = address("race")
        self.assertEqual(request("POST", "/v1/signup", {"email": recipient, "password": PASSWORD})[0], 202)
        token = confirm_token(recipient)
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda _: request("POST", "/v1/confirm", {"token": token}), range(8)))
        statuses = sorted(status for status, _ in results)
        self.assertEqual(statuses.count(200), 1, results)
        self.assertTrue(all(code(body) == "token_used" for status, body in results if status != 200), results)

    def test_a_reused_refresh_token_ends_the_session_on_every_instance(self):
        recipient, session = signed_up_and_confirmed("reuse")
        first = session["refresh_token"]
        status, rotated = request("POST", "/v1/token/refresh", {"refresh_token": first})
        self.assertEqual(status, 200, rotated)
        status, body = request("POST", "/v1/token/refresh", {"refresh_token": first})
        self.assertEqual((status, code(body)), (401, "refresh_token_reused"), body)
        for _ in range(3):
            status, body = request("POST", "/v1/token/refresh", {"refresh_token": rotated["refresh_token"]})
            self.assertEqual(status, 401, body)
            self.assertEqual(request("GET", "/v1/me", token=rotated["access_token"])[0], 401)

    def test_a_rotated_key_signs_and_verifies_everywhere(self):
        recipient, before = signed_up_and_confirmed("rotation")
        # A second session of the user, refreshed until the new key signs; `before` stays as it was issued.
        status, refreshed = request("POST", "/v1/signin", {"email": recipient, "password": PASSWORD})
        self.assertEqual(status, 200, refreshed)
        latchctl = os.path.join(ENV["LATCH_CLUSTER_BIN_DIR"], "latchctl")
        subprocess.run([latchctl, "--actor", "cluster-test", "keys", "rotate"], check=True, timeout=30,
                       env={**ENV, "DATABASE_URL": ENV["LATCH_CLUSTER_DATABASE_URL"],
                            "LATCH_SECRET_KEY_FILE": ENV["LATCH_CLUSTER_SECRET_KEY_FILE"]}, stdout=subprocess.DEVNULL)
        new_kid = json.loads(subprocess.run(
            [latchctl, "--json", "keys", "list"], check=True, timeout=30, capture_output=True,
            env={**ENV, "DATABASE_URL": ENV["LATCH_CLUSTER_DATABASE_URL"],
                 "LATCH_SECRET_KEY_FILE": ENV["LATCH_CLUSTER_SECRET_KEY_FILE"]}).stdout)[0]["kid"]
        # Every instance publishes the new key within the 5 s it keeps keys read.
        time.sleep(6)
        for n in (1, 2, 3):
            jwks = urllib.request.urlopen(
                f"http://127.0.0.1:{ENV[f'LATCH_CLUSTER_PORT_{n}']}/.well-known/jwks.json", timeout=5).read().decode()
            self.assertIn(new_kid, jwks, f"instance {n}")
        # It signs once every JWKS cache can hold it (LATCH_JWKS_MAX_AGE, 2 s here, plus 65 s); meanwhile the old
        # key signs. A refresh then gets a token of the new key, which every instance accepts.
        kid = lambda token: json.loads(_b64(token.split(".")[0]))["kid"]
        refresh_token, after = refreshed["refresh_token"], None
        deadline = time.time() + 120
        while time.time() < deadline:
            status, after = request("POST", "/v1/token/refresh", {"refresh_token": refresh_token})
            self.assertEqual(status, 200, after)
            refresh_token = after["refresh_token"]
            if kid(after["access_token"]) == new_kid:
                break
            self.assertEqual(kid(after["access_token"]), kid(before["access_token"]))
            time.sleep(3)
        self.assertEqual(kid(after["access_token"]), new_kid, "the new key signs")
        for _ in range(6):
            self.assertEqual(request("GET", "/v1/me", token=after["access_token"])[0], 200)
            self.assertEqual(request("GET", "/v1/me", token=before["access_token"])[0], 200, "the old key verifies")


def _b64(text):
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Faults(unittest.TestCase):
    def test_a_killed_instance_loses_no_accepted_sign_ups_mail(self):
        accepted, lock = [], threading.Lock()
        started = threading.Event()

        def sign_up(n):
            recipient = address(f"crash{n}")
            if n == 40:
                started.set()
            status, _ = request("POST", "/v1/signup", {"email": recipient, "password": PASSWORD})
            if status == 202:
                with lock:
                    accepted.append(recipient)
            return status

        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            futures = [pool.submit(sign_up, n) for n in range(150)]
            started.wait(60)
            cluster("kill", DIR, "2")
            statuses = [future.result() for future in futures]
        try:
            self.assertGreater(len(accepted), 100, statuses)
            # Every accepted sign-up's mail arrives: rows the dead instance had claimed return after the lease (5 s).
            deadline = time.time() + 90
            missing = list(accepted)
            while missing and time.time() < deadline:
                missing = [recipient for recipient in missing if not mails_to(recipient)]
                time.sleep(1)
            self.assertEqual(missing, [], f"{len(missing)} of {len(accepted)} accepted sign-ups got no mail")
            # And none twice: a mail is sent once per Message-ID, whichever instance sent it. (A recipient may hold
            # two different mails: HAProxy sends a request whose instance died without answering to another one,
            # and a sign-up that the dead one had committed then meets its own account.)
            ids = [str(message["Message-ID"]) for recipient in accepted for message in mails_to(recipient)]
            self.assertEqual(len(ids), len(set(ids)), "a Message-ID delivered twice")
        finally:
            cluster("start-instance", DIR, "2")

    def test_a_rolling_restart_under_load_answers_no_5xx(self):
        _, session = signed_up_and_confirmed("rolling")
        statuses, lock, stop = [], threading.Lock(), threading.Event()

        def load(worker):
            n = 0
            while not stop.is_set():
                n += 1
                if n % 4 == 0:
                    status, _ = request("POST", "/v1/signup", {"email": address(f"roll{worker}"), "password": PASSWORD})
                else:
                    status, _ = request("GET", "/v1/me", token=session["access_token"])
                with lock:
                    statuses.append(status)

        threads = [threading.Thread(target=load, args=(worker,)) for worker in range(4)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(1)
            cluster("rolling-restart", DIR)
            time.sleep(1)
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        failures = [status for status in statuses if status == 0 or status >= 500]
        self.assertGreater(len(statuses), 100)
        self.assertEqual(failures, [], f"{len(failures)} of {len(statuses)} requests failed: {sorted(set(failures))}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
