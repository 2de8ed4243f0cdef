"""Whether a process still runs: what tells a killed owner's leftovers from a live one's."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True while process `pid` exists on this host (someone else's included)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
