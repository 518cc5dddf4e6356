"""What a staff password must be: long, not common, not the username (NIST SP 800-63B 5.1.1.2:
length and a list of known passwords, no composition rules)."""

from __future__ import annotations

import functools
import gzip
import re
from pathlib import Path

MIN_LENGTH = 12
MAX_LENGTH = 200
# Fewer different characters than this is a pattern, not a password ("aaaaaaaaaaaa").
MIN_DISTINCT = 5
# 19,640 common passwords, from Django (BSD licence): data/README.md says where and how.
COMMON_LIST = Path(__file__).resolve().parent / "data" / "common-passwords.txt.gz"


@functools.cache
def common_passwords() -> frozenset[str]:
    with gzip.open(COMMON_LIST, "rt", encoding="utf-8") as lines:
        return frozenset(line.strip().lower() for line in lines if line.strip())


def problem(password: str, username: str) -> str | None:
    """Why this password will not do for this account, in plain words; None if it will."""
    password = password or ""
    if len(password) < MIN_LENGTH:
        return f"Use a password of at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"Use a password of at most {MAX_LENGTH} characters."
    lowered = password.lower()
    if username and username.lower() in lowered:
        return "Use a password that does not contain the username."
    if len(set(lowered)) < MIN_DISTINCT:
        return "Use a password with more different characters: this one is a pattern."
    common = common_passwords()
    # A common password with digits or signs added at either end is as easy to guess.
    core = re.sub(r"^[\W\d_]+|[\W\d_]+$", "", lowered)
    compact = lowered.replace(" ", "")
    # ...and so is one said twice or more ("iloveyouiloveyou").
    repeated = re.fullmatch(r"(.+?)\1+", compact)
    forms = {lowered, compact, core if len(core) >= 4 else lowered}
    if repeated:
        forms.add(repeated.group(1))
    if forms & common:
        return "That password is on a list of common passwords: choose another."
    return None
