"""What the benchmarks share: servers in subprocesses, free ports, memory and CPU of a process, wrk.

Every server a benchmark starts listens on 127.0.0.1 only and is stopped when the benchmark
ends, even when it fails.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A server subprocess on a loopback port, and how long it took to accept connections."""

    process: subprocess.Popen
    url: str
    startup_s: float

    def cpu_seconds(self) -> float:
        """User + system CPU the server process has used so far (Linux /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_mib(self) -> tuple[float, float]:
        """(resident now, peak resident) in MiB."""
        values = memory_mib(self.process.pid)
        return values["VmRSS"], values["VmHWM"]


def memory_mib(pid: int | str = "self") -> dict[str, float]:
    """A process's resident memory now (`VmRSS`) and at its peak since its exec (`VmHWM`), in MiB (Linux's /proc;
    `ru_maxrss`, unlike `VmHWM`, keeps at least the RSS of the process that started it)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return {k: int(v.split()[0]) / 1024 for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(.*)$", status, re.M)}


@contextmanager
def server(command: Sequence[str], port: int, *, startup_timeout: float = 1800.0) -> Iterator[Server]:
    """Start ``command`` (which must listen on ``port``), wait until it accepts, stop it after."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        while True:
            if process.poll() is not None:
                error = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}: {error[-2000:]}")
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                if time.perf_counter() - started > startup_timeout:
                    raise RuntimeError(f"{' '.join(command)} did not listen within {startup_timeout:.0f} s") from None
                time.sleep(0.1)
        yield Server(process, f"http://{HOST}:{port}/", time.perf_counter() - started)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def csi(*args: str) -> list[str]:
    """The command line of the kit's `csi` in this virtual environment."""
    return [str(BIN / "csi"), *args]


@dataclass(frozen=True)
class WrkResult:
    requests_per_s: float
    mean_latency_ms: float
    requests: int
    bad_responses: int


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def wrk(url: str, body: str, *, seconds: int, connections: int, threads: int) -> WrkResult:
    """POST ``body`` as fast as wrk can, with `rpc.lua`; non-2xx answers are counted apart."""
    if shutil.which("wrk") is None:
        raise RuntimeError("wrk is not installed (Debian: apt-get install -y wrk)")
    script = Path(__file__).with_name("rpc.lua")
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "-s", str(script), url, body],
                         capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = re.search(r"Latency\s+([\d.]+)(us|ms|s)", out)
    total = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return WrkResult(rate, float(latency.group(1)) * _UNITS[latency.group(2)], total, int(bad.group(1)) if bad else 0)


def machine() -> str:
    """One line naming the machine the figures come from, and how busy it was."""
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    memory = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1)) / 2**20
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{len(os.sched_getaffinity(0))} CPUs ({model}), {memory:.0f} GiB, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, load average {load}")


def programs_and_prover() -> tuple[object, str]:
    """Light's installed programs and the URL of the shared light prover, its start time printed: what the chain
    benchmarks need before they generate anything."""
    from csi_conformance.ledger_proofs.install import find_installation
    from csi_conformance.ledger_proofs.process import shared_prover

    installation = find_installation()
    if installation is None:
        raise SystemExit("Light's programs are not installed: run `csi prover install`")
    began = time.perf_counter()
    url = shared_prover(installation).url
    print(f"prover start: {time.perf_counter() - began:.1f} s")
    return installation, url
