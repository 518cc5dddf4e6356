"""A real SMTP server for tests (aiosmtpd on 127.0.0.1) that records what it receives, and
the wait for the portal's couriers (the threads that send its mail) to be done."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from flask.testing import FlaskClient


class Recorder:
    """aiosmtpd handler: keeps every message; refuses for good (550) recipients whose name
    starts 'reject'; asks to try later (450, as greylisting or a full mailbox does) for
    those starting 'busy' while `busy` is true; takes `delay` seconds to accept each
    message (a slow server), and while `gate` is an unset event, holds each message until it
    is set (a server that answers when the test says)."""

    def __init__(self, delay: float = 0) -> None:
        self.messages: list[EmailMessage] = []
        self.delay = delay
        self.busy = True
        self.tries: list[str] = []
        self.gate: threading.Event | None = None

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
        if self.gate is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.gate.wait)
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
        """What arrived, once every courier has sent what it was woken for (`settle`)."""
        settle()
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


def settle(timeout: float = 30.0) -> None:
    """Wait until every courier of this process is idle: the mail a request queued, or the
    mail of a case it stored, is written and sent (or left queued by a failure)."""
    from portal.mail.courier import Courier

    wait_for(lambda: all(courier.idle for courier in list(Courier.running)), timeout, every=0.005)


class SettlingClient(FlaskClient):
    """The test client every portal in the tests gets (tests/conftest.py): a request returns
    its response once the couriers are done with what it gave them. The response itself went
    out before that, as in production; the test, not the person, waits for the mail, so a
    test reads the outbox, the mail and the pages that count it as they stand. A test about
    that order itself uses a plain FlaskClient."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        settle()
        return response


def wait_for(condition, timeout: float = 5.0, every: float = 0.02) -> None:
    """Until `condition()` holds (a state, polled), or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(every)
