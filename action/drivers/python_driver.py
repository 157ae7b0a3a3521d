"""regreen's Python kernel: one persistent namespace, driven over line-delimited JSON.

stdin  (host -> kernel): {"type": "execute", "id", "code", "timeout_ms"} | {"type": "tool_result", "id", "result"}
                         | {"type": "interrupt"}
stdout (kernel -> host): {"type": "ready"} | {"type": "tool_call", "id", "name", "input"}
                         | {"type": "result", "id", "ok", "outputs", "stdout", "stderr", "error"}
The protocol owns the original stdout; anything else written to fd 1 goes to stderr.
"""
import ast
import asyncio
import base64
import importlib
import inspect
import io
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import timeit as _timeit
import traceback

PROTO = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
os.dup2(2, 1)
_send_lock = threading.Lock()


def send(message):
    line = json.dumps(message)
    with _send_lock:
        PROTO.write(line + "\n")
        PROTO.flush()


HEAD = 20000
TAIL = 20000


class Capture(io.TextIOBase):
    """Keeps the head and the tail of what a cell prints, counting what is cut."""

    def __init__(self):
        self.head = []
        self.head_size = 0
        self.tail = ""
        self.total = 0

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            text = str(text)
        self.total += len(text)
        room = HEAD - self.head_size
        if room > 0:
            self.head.append(text[:room])
            self.head_size += min(room, len(text))
            text = text[room:]
        if text:
            self.tail = (self.tail + text)[-TAIL:]
        return len(text)

    def flush(self):
        pass

    def value(self):
        head = "".join(self.head)
        cut = self.total - len(head) - len(self.tail)
        if cut > 0:
            return head + "\n[... %d characters cut ...]\n" % cut + self.tail
        return head + self.tail


_replies = queue.Queue()
_executes = queue.Queue()
_MAIN = threading.main_thread().ident
_busy = threading.Event()


def _reader():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        kind = message.get("type")
        if kind == "interrupt":
            if _busy.is_set():
                signal.pthread_kill(_MAIN, signal.SIGINT)
        elif kind == "tool_result":
            _replies.put(message)
        else:
            _executes.put(message)
    _executes.put(None)


class ToolError(Exception):
    """A bridged tool answered with an error."""


_outputs = []
_call_ids = [0]


def tool(name, input=None):
    """Calls one of the job's tools, with the same guards as a call from the model."""
    _call_ids[0] += 1
    call_id = _call_ids[0]
    send({"type": "tool_call", "id": call_id, "name": name, "input": input or {}})
    while True:
        reply = _replies.get()
        if reply.get("id") == call_id:
            break
    result = reply.get("result") or {}
    text = "\n".join(
        block.get("text", "[image]") for block in result.get("content", []) if isinstance(block, dict)
    )
    if result.get("isError"):
        raise ToolError(text)
    return text


def _figure_png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _render(value):
    if "matplotlib" in sys.modules:
        from matplotlib.figure import Figure

        if isinstance(value, Figure):
            return {"type": "image", "mime": "image/png", "data": _figure_png(value)}
    module = type(value).__module__ or ""
    if module.startswith("pandas") and hasattr(value, "to_string"):
        try:
            return {"type": "text", "text": value.to_string(max_rows=60, max_cols=20)}
        except TypeError:
            return {"type": "text", "text": value.to_string()}
    text = repr(value)
    if len(text) > 20000:
        text = text[:20000] + " [... %d characters cut]" % (len(text) - 20000)
    return {"type": "text", "text": text}


def display(*values):
    for value in values:
        _outputs.append(_render(value))


def _sh(command, shell="sh"):
    executable = "/bin/bash" if shell == "bash" else None
    completed = subprocess.run(
        command,
        shell=isinstance(command, str),
        executable=executable if isinstance(command, str) else None,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
    )
    if completed.stdout:
        sys.stdout.write(completed.stdout)
    if completed.stderr:
        sys.stderr.write(completed.stderr)
    if completed.returncode != 0:
        sys.stderr.write("[exit code %d]\n" % completed.returncode)
    NAMESPACE["_exit_code"] = completed.returncode


def _module_names(args):
    names = []
    for arg in args:
        if arg.startswith("-") or arg in ("install", "uninstall"):
            continue
        base = os.path.basename(arg)
        if base.endswith(".whl"):
            base = base.split("-")[0]
        base = re.split(r"[<>=!~\[;@ ]", base)[0]
        if base:
            names.append(base.replace("-", "_").lower())
    return names


def _pip(argline):
    args = shlex.split(argline)
    _sh([sys.executable, "-m", "pip"] + args)
    importlib.invalidate_caches()
    for name in _module_names(args):
        for loaded in list(sys.modules):
            if loaded.lower() == name or loaded.lower().startswith(name + "."):
                del sys.modules[loaded]


def _cd(target):
    os.chdir(os.path.expanduser(target.strip().strip("'\"") or "~"))
    print(os.getcwd())


def _format_seconds(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return "%.3g %s" % (seconds / scale, unit)
    return "%.3g ns" % (seconds / 1e-9)


def _timeit_cell(statement, setup="pass"):
    timer = _timeit.Timer(statement, setup or "pass", globals=NAMESPACE)
    number, _ = timer.autorange()
    runs = timer.repeat(repeat=5, number=number)
    best = min(runs) / number
    print("%s per loop (best of 5 runs, %d loops each)" % (_format_seconds(best), number))


def _unsupported(magic):
    raise RuntimeError("IPython magic %s is not supported here; write plain Python" % magic)


NAMESPACE = {
    "__name__": "__main__",
    "__builtins__": __builtins__,
    "display": display,
    "tool": tool,
    "ToolError": ToolError,
    "__regreen_sh": _sh,
    "__regreen_pip": _pip,
    "__regreen_cd": _cd,
    "__regreen_timeit": _timeit_cell,
    "__regreen_unsupported": _unsupported,
}
_loop = asyncio.new_event_loop()


def _cell_traceback(error):
    frames = traceback.extract_tb(error.__traceback__)
    kept = [frame for frame in frames if frame.filename != __file__]
    lines = traceback.format_list(kept) if kept else []
    return "Traceback (most recent call last):\n" + "".join(lines) + "".join(
        traceback.format_exception_only(type(error), error)
    )


def _run(code):
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = ast.parse(code, "<cell>", "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    result = eval(compile(tree, "<cell>", "exec", flags=flags), NAMESPACE)
    if inspect.iscoroutine(result):
        _loop.run_until_complete(result)
    if last is not None:
        value = eval(compile(last, "<cell>", "eval", flags=flags), NAMESPACE)
        if inspect.iscoroutine(value):
            value = _loop.run_until_complete(value)
        if value is not None:
            NAMESPACE["_"] = value
            _outputs.append(_render(value))


def _figures():
    if "matplotlib.pyplot" not in sys.modules:
        return
    pyplot = sys.modules["matplotlib.pyplot"]
    for number in pyplot.get_fignums():
        _outputs.append({"type": "image", "mime": "image/png", "data": _figure_png(pyplot.figure(number))})
    pyplot.close("all")


def main():
    threading.Thread(target=_reader, daemon=True).start()
    send({"type": "ready", "pid": os.getpid(), "python": sys.version.split()[0]})
    while True:
        try:
            message = _executes.get()
        except KeyboardInterrupt:
            continue
        if message is None:
            return
        if message.get("type") != "execute":
            continue
        del _outputs[:]
        out, err = Capture(), Capture()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        error = None
        interrupted = False
        _busy.set()
        try:
            _run(message["code"])
            _figures()
        except KeyboardInterrupt:
            interrupted = True
            error = "KeyboardInterrupt: the cell was interrupted (the kernel's state is kept)"
        except SyntaxError as syntax:
            error = "".join(traceback.format_exception_only(type(syntax), syntax))
        except BaseException as failure:  # noqa: BLE001 - every failure of a cell is reported
            error = _cell_traceback(failure)
        finally:
            _busy.clear()
            sys.stdout, sys.stderr = saved
        try:
            send(
                {
                    "type": "result",
                    "id": message.get("id"),
                    "ok": error is None,
                    "outputs": list(_outputs),
                    "stdout": out.value(),
                    "stderr": err.value(),
                    "error": error,
                    "interrupted": interrupted,
                }
            )
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
