"""Run `csi run` as a real subprocess and keep everything it wrote, for tests of whole runs.

    done = csi_run("--target", url, "--api-key", KEY, cwd=tmp_path, log=tmp_path / "debug.log")
    done.code, done.report, done.seconds, done.peak_rss_mib, done.written()

`HANG_GUARD` is how long a test waits for anything before it calls it a hang and fails: a
guard against a real hang, set far above any plausible duration, never a claim about speed
(wall-clock bounds belong in benchmarks/; lower bounds, such as `done.seconds` proving that a
back-off was waited, are fine in a test, as a busy machine only makes things slower).

The command is `csi_conformance.harness.faces.cli.main`, what the installed `csi` runs, started by a short prelude:
it gives SIGINT Python's default handler, so Ctrl-C reaches the run as it would from a terminal
even when the tests themselves run with SIGINT ignored (a background job), and with `log` it
configures Python logging at DEBUG into that file, so the HTTP stack's own records are kept.
stdout and stderr go to files (a pipe could fill and stall the run). Its peak RSS is the high-water mark of its
own memory (`VmHWM` in /proc, read while it runs): what `os.wait4` reports is at least the RSS of the process that
started it (Linux keeps the high-water mark of the memory a child shares up to its exec), so a test process grown
large would be counted as the child's. A child that hangs is asked for its threads' stacks (the prelude
registers faulthandler on SIGUSR1) before it is killed, and the test's failure shows them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["HANG_GUARD", "Finished", "Started", "csi_run", "start"]

HANG_GUARD = 300.0
"""Seconds after which a wait is a hang and the test fails."""

_PRELUDE = (
    "import faulthandler, logging, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "faulthandler.register(signal.SIGUSR1, all_threads=True)\n"
    "log = sys.argv.pop(1)\n"
    "if log:\n"
    "    logging.basicConfig(filename=log, level=logging.DEBUG, format='%(levelname)s %(name)s %(message)s')\n"
    "from csi_conformance.harness.faces.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@dataclass(frozen=True)
class Finished:
    """A finished `csi run`: exit code, output, wall time, peak memory, and its report directory."""

    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_mib: float
    cwd: Path
    report_dir: Path
    log: Path | None

    @property
    def report(self) -> dict[str, Any]:
        return json.loads((self.report_dir / "report.json").read_text(encoding="utf-8"))

    def findings(self, check_id: str | None = None, method: str | None = None) -> list[dict[str, Any]]:
        return [f for f in self.report["findings"]
                if check_id in (None, f["check_id"]) and method in (None, f["method"])]

    def statuses(self) -> Counter[str]:
        return Counter(check["status"] for check in self.report["checks"])

    def written(self) -> dict[str, bytes]:
        """Every byte the run wrote: stdout, stderr, the log, and each file under the working directory."""
        out = {"stdout": self.stdout.encode(), "stderr": self.stderr.encode()}
        for path in sorted(self.cwd.rglob("*")):
            if path.is_file():
                out[str(path.relative_to(self.cwd))] = path.read_bytes()
        return out

    def explain(self) -> str:
        """The end of stdout and stderr, for assertion messages."""
        return f"exit {self.code} after {self.seconds:.1f} s\n{self.stdout[-3000:]}\n{self.stderr[-2000:]}"


@dataclass
class Started:
    """A `csi run` in flight; `finish()` waits for it (killing it past the hang guard) and collects it."""

    process: subprocess.Popen[bytes]
    started: float
    cwd: Path
    report_dir: Path
    log: Path | None

    def finish(self, timeout: float = HANG_GUARD) -> Finished:
        read = lambda name: (self.cwd / name).read_text(encoding="utf-8", errors="replace")  # noqa: E731
        code, peak = _reap(self.process, time.monotonic() + timeout, lambda: read("stderr.txt")[-6000:])
        seconds = time.monotonic() - self.started
        return Finished(code, read("stdout.txt"), read("stderr.txt"), seconds, peak, self.cwd, self.report_dir,
                        self.log)


def start(*args: str, cwd: Path, log: Path | None = None, report_dir: str = "out",
          env: dict[str, str] | None = None) -> Started:
    """Start `csi run ARGS --report-dir <cwd>/<report_dir>` in `cwd`, output into cwd/stdout.txt and stderr.txt."""
    command = [sys.executable, "-c", _PRELUDE, str(log or ""), "run", *args, "--report-dir", report_dir]
    with open(cwd / "stdout.txt", "wb") as out, open(cwd / "stderr.txt", "wb") as err:
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                   env={**os.environ, **(env or {})})
    return Started(process, time.monotonic(), cwd, cwd / report_dir, log)


def csi_run(*args: str, cwd: Path, timeout: float = HANG_GUARD, log: Path | None = None,
            env: dict[str, str] | None = None) -> Finished:
    """`start(...)` then `finish(timeout)`."""
    return start(*args, cwd=cwd, log=log, env=env).finish(timeout)


def _reap(process: subprocess.Popen[bytes], deadline: float, stderr: Callable[[], str]) -> tuple[int, float]:
    """Exit code and peak RSS in MiB of the child; a child still running at `deadline` is killed and fails the
    test, with where each of its threads stood (faulthandler, on SIGUSR1) and what it had started."""
    peak = 0.0
    while True:
        peak = max(peak, _high_water_mib(process.pid))
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return process.returncode, peak or usage.ru_maxrss / 1024
        if time.monotonic() > deadline:
            children = _children(process.pid)
            process.send_signal(signal.SIGUSR1)
            time.sleep(2)
            process.kill()
            process.wait()
            raise AssertionError(f"csi run hung: still running at the hang guard; killed (pid {process.pid})\n"
                                 f"its children: {children or 'none'}\nthe end of its stderr:\n{stderr()}")
        time.sleep(0.02)


def _high_water_mib(pid: int) -> float:
    """The peak RSS in MiB of a running process's own memory since its exec (0 when /proc cannot tell)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return 0.0
    line = next((line for line in status.splitlines() if line.startswith("VmHWM:")), None)
    return int(line.split()[1]) / 1024 if line else 0.0


def _children(pid: int) -> list[str]:
    """`pid state command` of each process whose parent is `pid` (Linux's /proc), for a hang's report."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().rsplit(")", 1)
            fields = rest.split()
            if int(fields[1]) == pid:
                found.append(f"{stat.parent.name} {fields[0]} {name.split('(', 1)[1]}")
        except (OSError, ValueError, IndexError):
            continue
    return found
