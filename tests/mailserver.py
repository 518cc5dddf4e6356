"""A real SMTP server for tests (aiosmtpd on 127.0.0.1) that records what it receives."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller


class Recorder:
    """aiosmtpd handler: keeps every message; refuses for good (550) recipients whose name
    starts 'reject'; asks to try later (450, as greylisting or a full mailbox does) for
    those starting 'busy' while `busy` is true; takes `delay` seconds to accept each
    message (a slow server)."""

    def __init__(self, delay: float = 0) -> None:
        self.messages: list[EmailMessage] = []
        self.delay = delay
        self.busy = True
        self.tries: list[str] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        self.tries.append(address)
        if address.startswith("reject"):
            return "550 5.1.1 No such mailbox"
        if address.startswith("busy") and self.busy:
            return "450 4.2.1 Mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.delay)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(message)
        return "250 Message accepted"


class MailServer:
    def __init__(self, port: int | None = None, delay: float = 0) -> None:
        self.port = port or free_port()
        self.recorder = Recorder(delay)
        self.controller: Controller | None = None

    @property
    def messages(self) -> list[EmailMessage]:
        return self.recorder.messages

    def start(self) -> MailServer:
        self.controller = Controller(self.recorder, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller:
            self.controller.stop()
            self.controller = None

    def __enter__(self) -> MailServer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def body(message: EmailMessage, kind: str = "plain") -> str:
    return message.get_body(preferencelist=(kind,)).get_content()


def wait_for(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)
