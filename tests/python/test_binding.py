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
        # float32 exp: within 4 ulp of the simulator's (float16 and the other operators: bit for bit)
        np.testing.assert_array_max_ulp(cpu["out0"], outs["out0"], maxulp=4)
        assert np.array_equal(cpu["out1"], outs["out1"]) or relative(cpu["out1"], reference(a, b)[1]) < 1e-6


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


# ---- more of the API, one behaviour per test -------------------------------------------------

BACKENDS = ["sim", "cpu"] if pyasc.has_native and pyasc.has_cpu_backend else ["sim"]
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture
def two_inputs(program):
    return pyasc.compile(program, entry="f", inputs={"a": ("float32", [2, 2]), "b": ("float32", [2])})


def test_script_outputs_by_name_and_random_inputs(tmp_path):
    path = write(tmp_path, "script.py", "import numpy as np\nnp.random.seed(3)\nx = np.random.rand(5, 4).astype(np.float32)\n"
                                         "y = x * 2 + 1\n")
    m = pyasc.compile(path, target="ascend910b")
    np.random.seed(3)
    x = np.random.rand(5, 4)
    outs = m.run(backend="sim")
    assert list(outs) == ["y"]
    assert relative(outs["y"], x * 2 + 1) < 1e-6


def test_consts_reach_the_program(tmp_path):
    path = write(tmp_path, "k.py", "def f(a, k):\n    return a * k\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("float32", [3])}, consts={"k": 4})
    assert np.array_equal(m(np.array([1, 2, 3], np.float32)), np.array([4, 8, 12], np.float32))


def test_custom_operator_config():
    folder = os.path.join(ROOT, "examples", "custom_ops")
    m = pyasc.compile(os.path.join(folder, "use_leaky_relu_scale.py"), entry="block",
                      inputs={"x": ("float32", [64, 96]), "w": ("float32", [96, 32])}, target="ascend910b",
                      custom_op_config=[os.path.join(folder, "leaky_relu_scale", "leaky_relu_scale.json")])
    rng = np.random.default_rng(4)
    x, w = rng.random((64, 96), dtype=np.float32), rng.random((96, 32), dtype=np.float32)

    def ref(v, alpha=0.1, scale=2.0):
        return np.where(v > 0, v, v * alpha) * scale
    expected = ref(ref(x.astype(np.float64) - 0.5) @ w, alpha=0.2, scale=0.5)
    assert relative(m(x, w), expected) < 1e-5


def test_float64_program_warns(tmp_path):
    path = write(tmp_path, "f64.py", "import numpy as np\nx = np.random.rand(4)\ny = x * 2\n")
    with pytest.warns(UserWarning, match="float64 is not supported on the NPU target"):
        pyasc.compile(path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_float64_inputs_are_rounded_to_float32(tmp_path, backend):
    path = write(tmp_path, "f64in.py", "import numpy as np\n\n\ndef f(a, b):\n    return a * 2 + b\n")
    with pytest.warns(UserWarning, match="float64 values are computed in float32"):
        m = pyasc.compile(path, entry="f", inputs={"a": ("float64", [6]), "b": ("float32", [6])})
    a = np.array([0.1, -2.5, 1e-3, 3.0000001, 7.25, 1e30])
    b = np.linspace(-1, 1, 6, dtype=np.float32)
    want = a.astype(np.float32) * np.float32(2) + b
    out = m.run(a, b, backend=backend)["out0"]
    assert out.dtype == np.float32 and np.array_equal(out, want)
    assert np.array_equal(m.run(a.astype(np.float32), b, backend=backend)["out0"], want)
    with pytest.raises(TypeError, match=r"input 'a' is int32; the model takes float32 or float64"):
        m(np.arange(6, dtype=np.int32), b)
    with pytest.raises(TypeError, match=r"input 'b' is float64; the model takes float32 \("):
        m(a, b.astype(np.float64))
    with pytest.raises(ValueError, match=r"input 'a' \(float32\[6\]\) has no value"):
        m.run(b=b)  # neither the rounded copy of a nor a view outlives its call, even a failed one


@pytest.mark.parametrize("backend", BACKENDS)
def test_float16_elementwise(tmp_path, backend):
    path = write(tmp_path, "h.py", "import numpy as np\ndef f(a):\n    return np.exp(a) * a + 1\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("float16", [256])}, target="ascend910b")
    a = np.linspace(-3, 3, 256).astype(np.float16)
    y = m.run(a, backend=backend)["out0"]
    assert y.dtype == np.float16
    ref = np.exp(a.astype(np.float64)) * a.astype(np.float64) + 1
    assert relative(y, ref) < 2e-3


def test_float16_backends_agree_bit_for_bit(tmp_path):
    if not pyasc.has_cpu_backend:
        pytest.skip("no CPU backend in this build")
    path = write(tmp_path, "h2.py", "import numpy as np\ndef f(a, b):\n    return np.sqrt(np.abs(a)) / (b + 3) - np.tanh(a)\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("float16", [1000]), "b": ("float16", [1000])}, target="ascend910b")
    rng = np.random.default_rng(5)
    a, b = (rng.random(1000) * 8 - 4).astype(np.float16), rng.random(1000).astype(np.float16)
    assert np.array_equal(m.run(a, b, backend="sim")["out0"].view(np.uint16), m.run(a, b, backend="cpu")["out0"].view(np.uint16))


@pytest.mark.parametrize("backend", BACKENDS)
def test_integer_and_boolean_outputs(tmp_path, backend):
    path = write(tmp_path, "i.py", "import numpy as np\ndef f(m):\n    return np.argmax(m, axis=1), m > 0.5, (m * 10).astype(np.int32)\n")
    m = pyasc.compile(path, entry="f", inputs={"m": ("float32", [8, 20])}, target="ascend910b")
    x = np.random.default_rng(6).random((8, 20), dtype=np.float32)
    arg, mask, ints = m.run(x, backend=backend).values()
    assert arg.dtype == np.int64 and np.array_equal(arg, np.argmax(x, axis=1))
    assert mask.dtype == np.bool_ and np.array_equal(mask, x > 0.5)
    assert ints.dtype == np.int32 and np.array_equal(ints, (x * 10).astype(np.int32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_output_is_a_0d_array(tmp_path, backend):
    path = write(tmp_path, "s.py", "import numpy as np\ndef f(a):\n    return np.sum(a)\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("float32", [100])}, target="ascend910b")
    m.backend = backend
    y = m(np.ones(100, np.float32))
    assert y.shape == () and y == 100


def test_outputs_own_their_memory(two_inputs):
    a, b = np.ones((2, 2), np.float32), np.ones(2, np.float32)
    y, _ = two_inputs(a, b)
    y2, _ = two_inputs(a, b)
    assert y.flags.writeable and y.base is not None  # a capsule owns the result's buffer: no copy was made
    y[:] = 0
    assert np.all(y2 != 0)
    del y
    assert np.allclose(two_inputs(a, b)[0], np.exp(1) - 1)


def test_inputs_are_read_in_place_and_bound_per_call(two_inputs):
    a, b = np.ones((2, 2), np.float32), np.ones(2, np.float32)
    first = two_inputs(a, b)[0].copy()
    a[:] = 0  # the next call reads the new values: nothing was kept from the first
    assert np.allclose(two_inputs(a, b)[0], 0)
    assert not np.allclose(first, 0)
    with pytest.raises(ValueError, match=r"input 'b' \(float32\[2\]\) has no value"):
        two_inputs(a)  # b was bound for the previous call only


def test_non_contiguous_inputs_are_accepted(two_inputs):
    a = np.arange(16, dtype=np.float32).reshape(4, 4)[::2, ::2] / 16  # strided view
    b = np.asfortranarray(np.ones((2, 2), np.float32))[0]
    y, s = two_inputs(a, b)
    assert relative(y, np.exp(a.astype(np.float64)) - 1) < 1e-5


def test_byte_swapped_and_complex_inputs_are_refused(two_inputs):
    b = np.ones(2, np.float32)
    swapped = np.ones((2, 2), np.dtype(">f4" if sys.byteorder == "little" else "<f4"))  # float32 bytes in the other order
    with pytest.raises(TypeError, match=r"^input 'a' is >f4; the model takes float32 \(convert it with .astype\(np.float32\)\)$"
                       if sys.byteorder == "little" else r"input 'a' is <f4"):
        two_inputs(swapped, b)
    with pytest.raises(TypeError, match=r"^input 'a' is complex64; the model takes float32"):
        two_inputs(np.ones((2, 2), np.complex64), b)
    y, _ = two_inputs(swapped.astype(np.float32), b)  # converted, it is taken
    assert np.allclose(y, np.exp(1) - 1)


def test_too_many_arguments(two_inputs):
    with pytest.raises(TypeError, match=r"^the model takes 2 input\(s\), 3 given$"):
        two_inputs(np.ones((2, 2), np.float32), np.ones(2, np.float32), np.ones(2, np.float32))


def test_unknown_keyword_input(two_inputs):
    with pytest.raises(ValueError, match=r"model has no input 'z' \(inputs: a, b\)"):
        two_inputs.run(z=np.ones(2, np.float32))


def test_shape_error_message(two_inputs):
    with pytest.raises(ValueError, match=r"input 'a' must have shape \[2,2\], got \[3,2\]"):
        two_inputs(np.ones((3, 2), np.float32), np.ones(2, np.float32))


def test_non_array_input(two_inputs):
    with pytest.raises(TypeError, match=r"input 'a' is <U3; the model takes float32|input 'a' must be an array"):
        two_inputs("abc", np.ones(2, np.float32))


def test_bad_backend_name(two_inputs):
    with pytest.raises(ValueError, match=r"backend must be 'sim' or 'cpu', found 'gpu'"):
        two_inputs.run(np.ones((2, 2), np.float32), np.ones(2, np.float32), backend="gpu")


def test_default_backend():
    assert pyasc.compile(os.path.join(ROOT, "examples", "scale.py"), entry="func").backend == (
        "cpu" if pyasc.has_cpu_backend else "sim")


def test_cpu_stats(two_inputs):
    if not pyasc.has_cpu_backend:
        pytest.skip("no CPU backend in this build")
    two_inputs.run(np.ones((2, 2), np.float32), np.ones(2, np.float32), backend="cpu")
    s = two_inputs.stats
    assert s["backend"] == "cpu" and s["pipelines"] >= 1 and s["cached_pipelines"] == 0  # PYASC_CPU_CACHE=off


def test_sim_stats_keys(two_inputs):
    two_inputs.run(np.ones((2, 2), np.float32), np.ones(2, np.float32), backend="sim")
    assert set(two_inputs.stats) == {"backend", "cycles", "launches", "energy_uj", "macs", "pipe_utilisation", "bytes"}
    assert two_inputs.stats["launches"] >= 1 and two_inputs.stats["bytes"]["gm_to_ub"] > 0


def test_set_input_shape_of_the_only_input(tmp_path):
    path = write(tmp_path, "one.py", "def f(a):\n    return a + 1\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("float32", [6])})
    m.set_input_shape(shape=[6])
    with pytest.raises(ValueError, match=r"input 'a' has the static shape \[6\], not \[7\]"):
        m.set_input_shape(shape=[7])


def test_set_input_shape_of_the_only_parameter_beside_random_inputs(tmp_path):
    path = write(tmp_path, "seeded.py", "import numpy as np\n\n\ndef f(a):\n    np.random.seed(1)\n"
                 "    return a + np.random.rand(4).astype(np.float32)\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("float32", ["N", 4])}, dynamic_dims="1-8")
    m.set_input_shape(shape=[3, 4])
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.random.seed(1)
    np.testing.assert_allclose(m(x), x + np.random.rand(4).astype(np.float32), rtol=1e-6)


def test_set_input_shape_needs_a_name_with_several_inputs(two_inputs):
    with pytest.raises(TypeError, match="the model has 2 inputs: name the one to shape"):
        two_inputs.set_input_shape(shape=[2, 2])
    with pytest.raises(ValueError, match="model has no input 'q'"):
        two_inputs.set_input_shape("q", shape=[2])


def test_inputs_outputs_and_repr(two_inputs):
    assert two_inputs.outputs == [("out0", "float32", [2, 2]), ("out1", "float32", [2])]
    assert repr(two_inputs).endswith("for ascend310: a: float32[2, 2] b: float32[2]>")


def test_save_to_a_missing_folder(two_inputs, tmp_path):
    with pytest.raises(ValueError, match="missing/m.om"):
        two_inputs.save(str(tmp_path / "missing" / "m.om"))


def test_load_a_damaged_file(tmp_path):
    path = tmp_path / "bad.om"
    path.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(ValueError, match=r"bad\.om: not a pyasc model file \(bad magic\)"):
        pyasc.load(str(path))


def test_bad_opt_level(program):
    with pytest.raises(ValueError, match="opt_level must be 'O0', 'O1' or 'O2', found 'O3'"):
        pyasc.compile(program, entry="f", inputs={"a": ("float32", [2])}, opt_level="O3")


def test_unknown_target(program):
    with pytest.raises(ValueError, match="unknown target 'ascend999'"):
        pyasc.compile(program, entry="f", inputs={"a": ("float32", [2])}, target="ascend999")


def test_malformed_input_spec(program):
    with pytest.raises(TypeError, match=r"inputs\['a'\] must be \(dtype, shape\)"):
        pyasc.compile(program, entry="f", inputs={"a": "float32"})


def test_exact_syntax_error_message(tmp_path):
    path = write(tmp_path, "syn.py", "def f(a):\n    return a +\n")
    with pytest.raises(SyntaxError) as e:
        pyasc.compile(path, entry="f", inputs={"a": ("float32", [4])})
    assert str(e.value) == path + ":2:15: invalid syntax: unexpected end of line"


def test_exact_memory_error_message(tmp_path):
    path = write(tmp_path, "mem.py", "import numpy as np\nx = np.random.rand(4, 8).astype(np.float32)\ny = np.pad(x, 2**17)\n")
    with pytest.raises(MemoryError) as e:
        pyasc.compile(path)
    assert str(e.value) == path + ":3:5: MemoryError: Device memory exceeded (requested 256GB, available 8GB)"


def test_exact_type_error_message(tmp_path):
    path = write(tmp_path, "ty.py", "def f(a, b):\n    return a + b\n")
    with pytest.raises(TypeError) as e:
        pyasc.compile(path, entry="f")
    assert str(e.value).startswith(path + ":2:12: TypeError: Cannot infer dtype for operation 'add'")


def test_jit_with_explicit_inputs_and_tuple_results():
    f = pyasc.jit(inputs={"m": ("float32", [4, 5])}, backend="sim")(jit_program.stats)
    m = np.arange(20, dtype=np.float32).reshape(4, 5)
    mean, arg = f(m)
    assert np.allclose(mean, m.mean(axis=1)) and np.array_equal(arg, [4, 4, 4, 4])


@pytest.mark.parametrize("backend", ["sim", "cpu"] if pyasc.has_cpu_backend else ["sim"])
def test_results_come_in_return_order(tmp_path, backend):
    # the values are computed last to first: the model's outputs still follow the return statement
    path = write(tmp_path, "order.py", "import numpy as np\n\ndef f(a):\n    c = ~a\n    b = a & c\n"
                                       "    d = (b ^ c).astype(np.int32)\n    return d, b, c\n")
    m = pyasc.compile(path, entry="f", inputs={"a": ("bool", [8, 3])})
    m.backend = backend
    assert [name for name, _, _ in m.outputs] == ["out0", "out1", "out2"]
    a = np.random.default_rng(3).random((8, 3)) < 0.5
    d, b, c = m(a)
    assert d.dtype == np.int32 and b.dtype == np.bool_ and c.dtype == np.bool_
    assert np.array_equal(c, ~a) and np.array_equal(b, a & ~a) and np.array_equal(d, (b ^ c).astype(np.int32))


def test_dynamic_dims_and_the_guides_set_input_shape(tmp_path):
    """The reference guide's flow: compile once for ranges, set_input_shape, run at that shape."""
    path = write(tmp_path, "dyn.py", "import numpy as np\n\ndef f(x):\n    return np.maximum(x * 2.0 - 1.0, 0.0)\n")
    m = pyasc.compile(path, entry="f", inputs={"x": ("float32", ["N", "H", "W", 3])}, target="ascend910b",
                      dynamic_dims="1-4,24-40,24-40")
    m.backend = "sim"
    assert m.inputs == [("x", "float32", [4, 40, 40, 3])]  # the largest shape, which memory is planned for
    rng = np.random.default_rng(3)
    for shape in ([2, 30, 27, 3], [1, 24, 24, 3], [4, 40, 40, 3]):
        m.set_input_shape(shape=shape)
        x = rng.standard_normal(shape).astype(np.float32)
        out = m(x)
        assert out.shape == tuple(shape)
        np.testing.assert_array_equal(out, np.maximum(x * np.float32(2.0) - np.float32(1.0), np.float32(0.0)))
    with pytest.raises(ValueError, match=r"input 'x' takes shapes \[1-4,24-40,24-40,3\] \(the ranges it was compiled for\), "
                                         r"not \[5,24,24,3\]"):
        m.set_input_shape(shape=[5, 24, 24, 3])
    with pytest.raises(ValueError, match=r"--dynamic-dims='1-4': the symbolic dimension 'H' has no range"):
        pyasc.compile(path, entry="f", inputs={"x": ("float32", ["N", "H", 8, 3])}, dynamic_dims="1-4")
