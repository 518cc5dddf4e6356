"""The courier: the one way mail leaves the portal. A thread in each worker process sends
the outbox: a request that queued mail, or stored a case whose mail the courier writes,
wakes it right after its commit (`dispatch`), so the person is answered without waiting
for the SMTP server and their mail still goes out within seconds. Every ROUND_SECONDS the
thread also makes its round: the periodic jobs features add at start-up (photos of forms
never sent, the morning digest), then the mail of cases stored without it and whatever an
SMTP outage left queued. It stands on both halves of the package: the outbox sends,
compose queues."""

from __future__ import annotations

import atexit
import datetime as dt
import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import ClassVar

import sqlite_utils
from flask import Flask, current_app

from portal.core.clock import local_now
from portal.core.db import connect, get_db, rows
from portal.mail.compose import public_url_for, queue_forgotten_mail
from portal.mail.outbox import SendResult, Watch, mail, send_pending

# A periodic job: given the courier's connection and the local time, inside a request
# context (links need url_for); it must be safe to run in every worker at once.
Job = Callable[[sqlite_utils.Database, dt.datetime], object]
# How often the round runs (jobs, then a retry of what is queued), wakened or not.
ROUND_SECONDS = 60
# Cases whose mail is written, and messages sent, per round of a sweep.
BATCH = 50


class Courier:
    """A daemon thread per worker process: woken after a commit, it writes and sends the
    mail waiting; every ROUND_SECONDS it makes its round (the jobs, then the same), so an
    SMTP outage heals by itself and a case stored without its mail (a worker killed in
    between) gets it.

    When the process ends (gunicorn stops a worker with SIGTERM, which ends in a normal
    interpreter exit), `stop` lets it finish the message in hand, or releases that message
    for the next sender, instead of leaving it claimed until STALE_CLAIM has passed.
    """

    # Couriers with a thread, so a test can stop every one it started (`stop_all`) and
    # wait until none has anything left to do (`idle`).
    running: ClassVar[weakref.WeakSet[Courier]] = weakref.WeakSet()

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wake = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.watch = Watch()
        self.pid = 0
        self.sending = False

    def kick(self) -> None:
        self.start()
        self.wake.set()

    @property
    def idle(self) -> bool:
        """Nothing to do until the next wake-up or round: what it was woken for is sent,
        or left queued by a failure."""
        return not self.wake.is_set() and not self.sending

    def start(self) -> None:
        """Make sure this worker's thread runs (its round also makes the morning digest, so
        it must run on a day nobody sends anything)."""
        with self.lock:
            # A forked worker inherits the object but not the thread: start its own.
            if self.thread is None or not self.thread.is_alive() or self.pid != os.getpid():
                if self.pid != os.getpid():
                    atexit.register(self.stop)
                self.pid = os.getpid()
                self.watch = Watch()
                self.thread = threading.Thread(
                    target=self._run, args=(self.watch,), name="outbox", daemon=True
                )
                self.thread.start()
                Courier.running.add(self)

    def stop(self, timeout: float | None = None) -> None:
        """End the thread after the message in hand; release it if that takes longer than
        `timeout` seconds (by default, what one delivery may take)."""
        with self.lock:
            watch, thread = self.watch, self.thread if self.pid == os.getpid() else None
            watch.stop.set()
            self.wake.set()
            Courier.running.discard(self)
        if thread is None:
            return
        # Sending one message gives up after MAIL_TIMEOUT (per SMTP step); gunicorn's
        # graceful timeout (30 s by default) leaves room for that.
        thread.join(2 * self.app.config["MAIL_TIMEOUT"] + 1 if timeout is None else timeout)
        if thread.is_alive() and watch.holding is not None:
            db = connect(self.app.config["DATABASE"])
            try:
                db.execute(
                    "UPDATE outbox SET status = 'queued', attempts = attempts - 1"
                    " WHERE id = ? AND status = 'sending'",
                    [watch.holding],
                )
            finally:
                db.conn.close()

    @classmethod
    def stop_all(cls) -> None:
        for courier in list(cls.running):
            courier.stop()

    def _run(self, watch: Watch) -> None:
        next_round = time.monotonic() + ROUND_SECONDS
        while not watch.stop.is_set():
            self.wake.wait(timeout=max(0.0, next_round - time.monotonic()))
            # Busy before the wake-up is cleared: `idle` is never true in between.
            self.sending = True
            self.wake.clear()
            if watch.stop.is_set():
                self.sending = False
                break
            # Only the round runs the jobs: what a wake-up is for (the mail just queued)
            # goes out at once, never behind the day's digest.
            jobs = time.monotonic() >= next_round
            if jobs:
                next_round = time.monotonic() + ROUND_SECONDS
            db = courier_connection(self.app)
            try:
                sweep_and_send(self.app, db, watch, jobs=jobs)
            except Exception:  # keep the thread alive; the mail stays queued
                self.app.logger.exception("sending the outbox failed")
            finally:
                db.conn.close()
                self.sending = False


def courier_connection(app: Flask) -> sqlite_utils.Database:
    """The courier's own connection, which commits without waiting for the disk.

    Everything it writes can be written again: mail queued with its case's mark, in one
    transaction (lost together in a power cut, so the next sweep queues it again), and an
    outbox row's progress (a lost 'sent' sends that message once more). What a person
    sent is committed by the request with synchronous = FULL (portal/core/db.py) before they
    are answered; the courier's commits would otherwise each wait for an fsync too.
    """
    db = connect(app.config["DATABASE"])
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def add_job(app: Flask, job: Job) -> None:
    """Run `job` at each round, before the mail (in the order jobs were added). A registry,
    not a call: the features that add jobs (intake, digest) stand on this package."""
    app.extensions.setdefault("courier_jobs", []).append(job)


def sweep_and_send(
    app: Flask, db: sqlite_utils.Database, watch: Watch | None = None, *, jobs: bool = True
) -> SendResult:
    """Run the periodic jobs (the round; a wake-up skips them), then write the mail of
    cases stored without it and send everything queued, batch after batch while more is
    waiting and the mail server takes it (a burst of reports is one wake-up)."""
    watch = watch or Watch()
    total = SendResult()
    # A request context: links in the mail need url_for, outside any request here.
    with app.test_request_context(base_url=app.config["PUBLIC_URL"] or "http://localhost"):
        for job in app.extensions.get("courier_jobs", ()) if jobs else ():
            job(db, local_now())
        while True:
            written = queue_forgotten_mail(db, limit=BATCH)
            result = send_pending(db, limit=BATCH, watch=watch)
            total.sent, total.failed = total.sent + result.sent, total.failed + result.failed
            total.deferred = result.deferred
            # Again while a batch was full; a message the server deferred waits for the round.
            more = written == BATCH or result.sent + result.failed == BATCH
            if watch.stop.is_set() or not more:
                return total


def dispatch() -> None:
    """Wake this worker's courier: the mail just committed goes out without the request
    waiting for it."""
    current_app.extensions["courier"].kick()


def init_outbox(app: Flask) -> None:
    mail.init_app(app)
    # A link to share: on PORTAL_PUBLIC_URL, never on a host a request claims.
    app.jinja_env.globals["public_url_for"] = public_url_for
    app.extensions["courier"] = Courier(app)

    @app.before_request
    def start_courier() -> None:
        app.extensions["courier"].start()

    @app.cli.group("outbox")
    def outbox_cli() -> None:
        """Inspect queued mail (the courier in each worker sends it)."""

    @outbox_cli.command("status")
    def status_command() -> None:
        """Count messages by status."""
        for row in rows(
            get_db(), "SELECT status, count(*) AS n FROM outbox GROUP BY status ORDER BY status"
        ):
            print(f"{row['status']}: {row['n']}")
