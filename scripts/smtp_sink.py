"""A real SMTP server for tests: accepts every message and saves it, as received, to a directory.

Each message becomes DIR/<sequence>.eml (the envelope's recipients in DIR/<sequence>.rcpt), written to a temporary
name first and renamed, so a reader never sees half a message.
"""
import argparse
import asyncio
import itertools
import os
import signal

from aiosmtpd.controller import Controller


class SaveToDirectory:
    def __init__(self, directory):
        self.directory = directory
        self.sequence = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
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
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    controller = Controller(SaveToDirectory(args.directory), hostname="127.0.0.1", port=args.port)
    controller.start()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    loop.run_until_complete(stop.wait())
    controller.stop()


if __name__ == "__main__":
    main()
