"""The Python binding end to end: compile, call, run on both backends, jit, load/save, stats,
set_input_shape, and the exception classes of compiler errors (ctest python.binding)."""
import os
import sys

import numpy as np
import pytest

import pyasc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import jit_program  # noqa: E402

pytestmark = pytest.mark.skipif(not pyasc.has_native, reason="the native module is not on PYTHONPATH")


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.fixture
def program(tmp_path):
    return write(tmp_path, "prog.py", "import numpy as np\n\ndef f(a, b):\n    return np.exp(a) * b - 1, a.sum(axis=0)\n")


def reference(a, b):
    a64 = a.astype(np.float64)
    return np.exp(a64) * b - 1, a64.sum(axis=0)


def relative(out, ref):
    return np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref)


@pytest.mark.parametrize("backend", ["sim", "cpu"] if pyasc.has_cpu_backend else ["sim"])
def test_compile_and_call(program, backend):
    m = pyasc.compile(program, entry="f", inputs={"a": ("float32", [32, 48]), "b": ("float32", [48])},
                      target="ascend910b")
    m.backend = backend
    rng = np.random.default_rng(1)
    a = rng.random((32, 48), dtype=np.float32) - 0.5
    b = rng.random(48, dtype=np.float32)
    y, s = m(a, b)
    ry, rs = reference(a, b)
    assert y.dtype == np.float32 and y.shape == (32, 48) and s.shape == (48,)
    assert relative(y, ry) < 1e-5 and relative(s, rs) < 1e-5
    assert m.stats["backend"] == backend
    if backend == "sim":
        assert m.stats["cycles"] > 0 and 0 < m.stats["pipe_utilisation"]["V"] <= 1 and m.stats["energy_uj"] > 0
    else:
        assert m.stats["run_ms"] >= 0 and m.stats["compile_ms"] > 0


def test_run_by_name_and_backend(program):
    m = pyasc.compile(program, entry="f", inputs={"a": ("float32", [8, 16]), "b": ("float32", [16])})
    a = np.linspace(-1, 1, 128, dtype=np.float32).reshape(8, 16)
    b = np.arange(16, dtype=np.float32)
    outs = m.run(a, b=b, backend="sim")
    assert sorted(outs) == ["out0", "out1"]
    assert relative(outs["out0"], reference(a, b)[0]) < 1e-5
    if pyasc.has_cpu_backend:
        cpu = m.run(a, b=b, backend="cpu")
        assert np.array_equal(cpu["out0"], outs["out0"])  # elementwise: bit for bit the simulator's


def test_jit_compiles_once_per_signature():
    smooth = pyasc.jit(jit_program.smooth, target="ascend910b")
    x = np.linspace(-2, 2, 1000, dtype=np.float32)
    w = np.float32(0.25) * np.ones(1000, np.float32)
    y = smooth(x, w)
    assert relative(y, np.tanh(x.astype(np.float64)) * 0.25 + np.maximum(x, 0.5)) < 1e-5
    smooth(x * 2, w)
    assert len(smooth.models) == 1
    smooth(x[:10].copy(), w[:10].copy())
    assert len(smooth.models) == 2
    stats = pyasc.jit(backend="sim")(jit_program.stats)
    m = np.random.default_rng(2).random((6, 40), dtype=np.float32)
    mean, arg = stats(m)
    assert relative(mean, m.astype(np.float64).mean(axis=1)) < 1e-5 and np.array_equal(arg, np.argmax(m, axis=1))


def test_save_and_load(program, tmp_path):
    m = pyasc.compile(program, entry="f", inputs={"a": ("float32", [4, 4]), "b": ("float32", [4])})
    path = str(tmp_path / "m.om")
    m.save(path)
    back = pyasc.load(path)
    assert back.inputs == [("a", "float32", [4, 4]), ("b", "float32", [4])]
    a = np.eye(4, dtype=np.float32)
    b = np.ones(4, np.float32)
    assert np.array_equal(back(a, b)[0], m(a, b)[0])
    m.set_input_shape("a", shape=[4, 4])
    with pytest.raises(ValueError, match="shape"):
        m.set_input_shape("a", shape=[5, 4])


def test_errors_raise_their_python_classes(tmp_path, program):
    with pytest.raises(SyntaxError, match=r"bad\.py:2:\d+: invalid syntax"):
        pyasc.compile(write(tmp_path, "bad.py", "def f(a):\n    return a +\n"), entry="f", inputs={"a": ("float32", [4])})
    with pytest.raises(TypeError, match="Cannot infer dtype"):
        pyasc.compile(write(tmp_path, "untyped.py", "def f(a, b):\n    return a + b\n"), entry="f")
    with pytest.raises(MemoryError, match=r"huge\.py:3:\d+: MemoryError: Device memory exceeded"):
        pyasc.compile(write(tmp_path, "huge.py", "import numpy as np\nx = np.random.rand(4, 8).astype(np.float32)\n"
                                                  "y = np.pad(x, 2**17)\n"))
    with pytest.raises(ValueError, match="axis 3 is out of bounds"):
        pyasc.compile(write(tmp_path, "axis.py", "import numpy as np\ndef f(a):\n    return np.sum(a, axis=3)\n"),
                      entry="f", inputs={"a": ("float32", [4])})
    m = pyasc.compile(program, entry="f", inputs={"a": ("float32", [2, 2]), "b": ("float32", [2])})
    with pytest.raises(TypeError, match=r"input 'a' is float64; the model takes float32"):
        m(np.ones((2, 2)), np.ones(2, np.float32))
    with pytest.raises(ValueError, match="shape"):
        m(np.ones((3, 2), np.float32), np.ones(2, np.float32))
    with pytest.raises(ValueError, match="cannot read"):
        pyasc.load(str(tmp_path / "missing.om"))
