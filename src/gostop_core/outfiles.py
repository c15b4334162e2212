"""Writing output files without harming what the path already names.

Every command that writes a whole file (``gostop train --out``, the self-play
manifest, ``gostop svg -o``, the weights and checkpoints of the training
packages) goes through :func:`atomic_output` or :func:`write_output`:

* a new path, or one naming a regular file, is written to a temporary file in
  the same directory and renamed over it, so a reader sees the old file or the
  new one, never half of either, and a failed write leaves the old file as it was;
* a path naming a character device or a FIFO (``/dev/null``, ``/dev/stdout``,
  a named pipe) is written in place: it is never replaced by a regular file
  (run as root, a rename over ``/dev/null`` would break every later program);
* a symbolic link is followed: its target is written by the two rules above,
  and the link stays a link;
* a directory, a socket or a block device is refused with
  :class:`OutputFileError` (one line naming the path) before anything is written.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from typing import IO, Iterator

from gostop_core.errors import GoStopError

# A lone surrogate (from a record's seat name, say) has no UTF-8 form: it is
# written as a backslash escape instead of failing the whole file.
_TEXT = {"encoding": "utf-8", "errors": "backslashreplace"}

__all__ = ["OutputFileError", "atomic_output", "output_kind", "write_output"]


class OutputFileError(GoStopError, OSError):
    """An output path that cannot be written (it names a directory, a socket or
    a block device, or the write failed); the message is one line naming it."""


def output_kind(path: str) -> str:
    """How :func:`atomic_output` writes ``path``: ``"replace"`` (a new path or a
    regular file, after following symbolic links) or ``"in place"`` (a character
    device or a FIFO); raises :class:`OutputFileError` for anything else."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "replace"
    except OSError as exc:
        raise OutputFileError(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        return "replace"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "in place"
    what = ("a directory" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a block device" if stat.S_ISBLK(mode) else "not a regular file")
    raise OutputFileError(f"{path} is {what}: give a file to write")


@contextlib.contextmanager
def atomic_output(path: str, binary: bool = False) -> Iterator[IO]:
    """A handle to write ``path`` through (text, UTF-8, unless ``binary``); the
    file is in place when the ``with`` block ends without an exception, and
    untouched (a regular file) when it raises.  See the module's rules."""
    kind = output_kind(path)
    if kind == "in place":
        try:
            handle = open(path, "wb" if binary else "w",
                          **({} if binary else _TEXT))
        except OSError as exc:
            raise OutputFileError(f"{path}: {exc.strerror or exc}") from None
        try:
            with handle:
                yield handle
        except OSError as exc:
            raise OutputFileError(f"{path}: {exc.strerror or exc}") from None
        return
    target = os.path.realpath(path)  # a link stays a link: its target is replaced
    directory = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".",
                                   suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputFileError(f"{path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb" if binary else "w",
                       **({} if binary else _TEXT)) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if os.path.exists(target):  # keep the old file's permissions, not mkstemp's 0600
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputFileError):
            raise OutputFileError(f"{path}: {exc.strerror or exc}") from None
        raise


def write_output(path: str, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` by the module's rules."""
    with atomic_output(path, binary=isinstance(data, bytes)) as handle:
        handle.write(data)
