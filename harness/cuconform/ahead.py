"""Test processes started ahead of their turn, so that their CUDA contexts are made while the GPU runs other work.

The driver makes CUDA contexts one at a time, about five a second on an H200, and a test process makes one before
its first test (docs/design/processes.md): a worker that starts its next process when it is free waits for the
driver. While the exclusive batches hold the GPU (the first seconds of a run) the driver is idle, and the ordinary
batches queued behind them wait. So the batches next in the GPU lane's queue get their processes before their turn:
each is started with CUCONFORM_START_GATE (suites/common/src/main.cpp), makes its context, says so, and waits at the
gate; the worker that takes the batch opens the gate, and the process runs its tests as one started then would.

- Only ordinary and isolated GPU batches (an isolated rule needs a process that no other rule touched, which a
  context made at the gate is: no launch, no limit, no allocation). Not exclusive batches: they run first, alone.
- At most `limit()` processes wait at once (each holds a context and its memory on the GPU: zero until the device
  probe has told how much there is), and at most CREATING of them make their contexts at once, so that a context
  another process needs now (an exclusive rule's child process) waits behind two at most, not behind a queue.
- A process that ended before its turn (it could not make a context, say) is not handed out: its batch starts a
  process of its own then, as without this module.
"""

from __future__ import annotations

import os
import select
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.protocol import START_GATE_ENV
from cuconform.runner import Launch, command_for

CREATING = 2  # processes making their contexts at once
CONTEXT_BYTES = 512 << 20  # what a waiting process's context holds on the GPU, at most (about 300 MiB on an H200)
MEMORY_SHARE = 4  # the waiting contexts take at most a quarter of the GPU's memory
LIMIT = 48  # processes waiting at once: more than a quick run's ordinary batches on four workers


def limit_for(devices: dict | None) -> int:
    """How many processes may wait at the gate on these devices (the probe's result; None: not known yet)."""
    listed = (devices or {}).get("devices") or []
    if not listed:
        return 0
    memory = min(int(device.get("global_memory_bytes") or 0) for device in listed)
    return min(LIMIT, memory // MEMORY_SHARE // CONTEXT_BYTES)


@dataclass
class Waiting:
    """A process started ahead, waiting at its gate (or still making its context: `ready` not yet set)."""

    process: subprocess.Popen
    gate: socket.socket
    tests: tuple[str, ...]
    started: float = field(default_factory=time.monotonic)
    ready: float | None = None  # when it said its context was made

    def open(self) -> None:
        """Its turn: the process runs its tests. The gate stays open until the process has ended (`close`): one still
        making its context writes its byte after this one was sent."""
        try:
            self.gate.sendall(b"g")
        except OSError:
            pass  # it has ended: the reader sees that

    def close(self) -> None:
        self.gate.close()

    def discard(self) -> None:
        try:
            os.killpg(self.process.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        self.gate.close()
        self.process.wait()


def start_at_gate(binary: Path, tests: tuple[str, ...], launch: Launch) -> Waiting:
    """Starts a batch's process to wait at its gate; its output is read once it is handed out (runner.py)."""
    ours, theirs = socket.socketpair()
    env = dict(launch.env if launch.env is not None else os.environ, **{START_GATE_ENV: str(theirs.fileno())})
    try:
        process = subprocess.Popen(
            command_for(binary, tests, launch),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            pass_fds=(theirs.fileno(),),
        )
    finally:
        theirs.close()
    return Waiting(process, ours, tuple(tests))


class StartedAhead:
    """Keeps the next ordinary GPU batches of a queue started ahead. `candidates()` gives them in the order they will
    be taken (called often, from this object's thread: it must be cheap and thread-safe); `take(batch)` hands a
    batch's waiting process to the worker that runs it."""

    def __init__(
        self,
        candidates: Callable[[], list],
        launch: Launch,
        key: Callable[[object], tuple[str, ...]],
        limit: Callable[[], int],
    ):
        self._candidates = candidates
        self._launch = launch
        self._key = key  # a batch's tests, as its process is given them
        self._limit = limit
        self._lock = threading.Lock()
        self._waiting: dict[int, Waiting] = {}  # by id() of the batch
        self._gone: set[int] = set()  # batches a worker has taken (id()): a process started for one now is not wanted
        self._stopped = threading.Event()
        self._wake = threading.Event()
        self.started = 0  # processes started ahead, for the run's account
        self.taken = 0
        self._thread = threading.Thread(target=self._keep_ahead, daemon=True, name="cuconform start ahead")
        self._thread.start()

    def poke(self) -> None:
        """The queue changed: look again now."""
        self._wake.set()

    def take(self, batch) -> Waiting | None:
        """The process started for `batch`, if it is there and still alive, else None (the worker starts one)."""
        with self._lock:
            waiting = self._waiting.pop(id(batch), None)
            self._gone.add(id(batch))
        self.poke()
        if waiting is None:
            return None
        if waiting.process.poll() is not None or waiting.tests != self._key(batch):
            waiting.discard()
            return None
        self.taken += 1
        return waiting

    def stop(self) -> None:
        """No more processes; those still waiting are killed (the run ended or was stopped)."""
        self._stopped.set()
        self._wake.set()
        self._thread.join(5)
        with self._lock:
            left, self._waiting = list(self._waiting.values()), {}
        for waiting in left:
            waiting.discard()

    def _keep_ahead(self) -> None:
        while not self._stopped.is_set():
            self._start_more()
            with self._lock:
                creating = [waiting for waiting in self._waiting.values() if waiting.ready is None]
            if creating:
                self._note_ready(creating)
            else:
                self._wake.wait(0.05)
                self._wake.clear()

    def _start_more(self) -> None:
        """Starts the next candidates' processes, as many as the limits allow."""
        with self._lock:
            room = self._limit() - len(self._waiting)
            creating = sum(waiting.ready is None for waiting in self._waiting.values())
            known = set(self._waiting) | self._gone
        if room <= 0 or creating >= CREATING:
            return
        for batch in self._candidates():
            if creating >= CREATING or room <= 0 or self._stopped.is_set():
                return
            if id(batch) in known:
                continue
            waiting = start_at_gate(batch.binary, self._key(batch), self._launch)
            self.started += 1
            with self._lock:
                wanted = id(batch) not in self._gone  # else a worker took the batch while its process started
                if wanted:
                    self._waiting[id(batch)] = waiting
            if not wanted:
                waiting.discard()
                continue
            creating += 1
            room -= 1

    def _note_ready(self, creating: list[Waiting]) -> None:
        """Waits a moment for processes making their contexts to say they have (or to end: then they will not be
        handed out). A gate a worker closed meanwhile (it took the process) is no longer looked at."""
        gates = {waiting.gate.fileno(): waiting for waiting in creating if waiting.gate.fileno() >= 0}
        try:
            readable, _, _ = select.select(list(gates), [], [], 0.05)
        except (OSError, ValueError):
            return  # a gate was closed while it was looked at: look again
        for number in readable:
            waiting = gates[number]
            try:
                waiting.gate.recv(1)
            except OSError:
                pass
            waiting.ready = time.monotonic()
