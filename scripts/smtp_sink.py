"""A real SMTP server for tests: accepts every message and saves it, as received, to a directory.

Each message becomes DIR/<sequence>.eml (the envelope's recipients in DIR/<sequence>.rcpt), written to a temporary
name first and renamed, so a reader never sees half a message. DIR/sessions holds the number of SMTP sessions
greeted so far (EHLO or HELO: one per connection a client uses, however many messages it sends on it).

With --delay SECONDS every command (greeting, MAIL, RCPT, DATA) is answered that late: a provider far away, for
the mail benchmark.
"""
import argparse
import asyncio
import itertools
import os
import signal

from aiosmtpd.controller import Controller


class SaveToDirectory:
    def __init__(self, directory, delay):
        self.directory = directory
        self.delay = delay
        self.sequence = itertools.count(1)
        self.sessions = 0

    async def pause(self):
        if self.delay > 0:
            await asyncio.sleep(self.delay)

    def count_session(self):
        self.sessions += 1
        path = os.path.join(self.directory, "sessions")
        with open(path + ".tmp", "w") as f:
            f.write(f"{self.sessions}\n")
        os.rename(path + ".tmp", path)

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        await self.pause()
        self.count_session()
        session.host_name = hostname
        return responses

    async def handle_HELO(self, server, session, envelope, hostname):
        await self.pause()
        self.count_session()
        session.host_name = hostname
        return "250 {}".format(server.hostname)

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        await self.pause()
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        await self.pause()
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        await self.pause()
        number = next(self.sequence)
        base = os.path.join(self.directory, f"{os.getpid()}-{number:06d}")
        with open(base + ".rcpt.tmp", "w") as f:
            f.write("\n".join(envelope.rcpt_tos) + "\n")
        os.rename(base + ".rcpt.tmp", base + ".rcpt")
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 Message accepted for delivery"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--directory", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    controller = Controller(SaveToDirectory(args.directory, args.delay), hostname="127.0.0.1", port=args.port)
    controller.start()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    loop.run_until_complete(stop.wait())
    controller.stop()


if __name__ == "__main__":
    main()
