"""Photos are decoded in a child process, one at a time per worker, with a deadline.

A photo's header is cheap, its pixels are not: a 40-megapixel PNG takes seconds of CPU and
hundreds of MB to decode, and Pillow cannot be interrupted. So each worker process keeps
one child (`python portal/intake/photos.py`, niced, its memory capped) and sends it one
upload at a time; the request's thread waits for the answer without holding the GIL, so
the worker's other threads go on serving pages. A decode still running at the deadline is
ended by killing the child (a new one starts for the next photo), and the photo refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import struct
import subprocess
import sys
import threading
import time

from content_model.site import N_
from portal.intake import photos
from portal.intake.photos import Photo, PhotoError

# A 40 MP photo takes 2-6 s here on a busy 2-core machine; past this, it is refused.
DEADLINE_SECONDS = 20.0
# How long a request waits for the worker's decoder while another photo is in it, and how
# many may wait at once: past either, the photo is refused as BUSY (the form comes back with
# what was typed). A waiting request holds one of the worker's threads (gunicorn: 8), so
# with one decoding and five waiting, two still answer pages (18
# uploads at once held every thread and an unrelated page waited 26.9 s). Fewer places
# refused residents' small photos on a busy machine while the decoder's child started.
WAIT_SECONDS = 10.0
MAX_WAITING = 5
TOO_SLOW = N_(
    "This photo took too long for us to process. Attach a smaller photo, or a screenshot of it."
)
BUSY = N_(
    "Many photos are being processed right now, so this one was not. Send the form again "
    "in a minute: what you typed is kept."
)


class DecoderBusy(PhotoError):
    """The worker's decoder had no room for this photo (BUSY)."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class Decoder:
    """One child process and one photo at a time, for the worker process that made it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        # Places for requests with a photo: the one decoding and those waiting for it.
        self.places = threading.BoundedSemaphore(1 + MAX_WAITING)
        self.child: subprocess.Popen | None = None
        self.pid = os.getpid()
        self.started = 0  # children started (a test counts the restarts)

    def clean(self, data: bytes) -> Photo:
        """The upload checked and re-encoded (photos.process_photo), or PhotoError."""
        if not data:
            raise PhotoError(photos._EMPTY)
        if len(data) > photos.MAX_UPLOAD_BYTES:
            raise PhotoError(photos._TOO_LARGE)
        if not self.places.acquire(blocking=False):
            raise DecoderBusy
        try:
            if not self.lock.acquire(timeout=WAIT_SECONDS):
                raise DecoderBusy
            try:
                return self._decode(data)
            finally:
                self.lock.release()
        finally:
            self.places.release()

    def _decode(self, data: bytes) -> Photo:
        child = self._child()
        deadline = time.monotonic() + DEADLINE_SECONDS
        try:
            child.stdin.write(struct.pack(">I", len(data)) + data)
            child.stdin.flush()
            kind = self._read(1, deadline)
            if kind == b"o":
                width, height = struct.unpack(">II", self._read(8, deadline))
                jpeg = self._read(self._length(deadline), deadline)
                sha = hashlib.sha256(jpeg).hexdigest()
                return Photo(jpeg, "image/jpeg", width, height, sha)
            message = self._read(self._length(deadline), deadline).decode()
            raise PhotoError(message)
        except (TimeoutError, BrokenPipeError, EOFError, OSError):
            # Past the deadline, or the child died (its memory cap): it is replaced.
            self.stop()
            raise PhotoError(TOO_SLOW) from None

    def _length(self, deadline: float) -> int:
        return struct.unpack(">I", self._read(4, deadline))[0]

    def _read(self, size: int, deadline: float) -> bytes:
        stream = self.child.stdout
        data = b""
        while len(data) < size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stream], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(stream.fileno(), size - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def _child(self) -> subprocess.Popen:
        if self.pid != os.getpid():  # a forked worker: its parent's child is not its own
            self.child, self.pid = None, os.getpid()
        if self.child is None or self.child.poll() is not None:
            # -P: the script's folder is not put on sys.path (its modules would shadow).
            self.child = subprocess.Popen(
                [sys.executable, "-P", photos.__file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            self.started += 1
        return self.child

    def stop(self) -> None:
        child, self.child = self.child, None
        if child is not None and self.pid == os.getpid():
            with contextlib.suppress(OSError):
                child.kill()
            child.wait()
            for stream in (child.stdin, child.stdout):
                with contextlib.suppress(OSError):
                    stream.close()


DECODER = Decoder()


def clean_photo(data: bytes) -> Photo:
    """Check and re-encode one upload in this worker's decoding process."""
    return DECODER.clean(data)
