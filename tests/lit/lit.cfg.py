# lit configuration: every suite under tests/lit runs the built tools and FileCheck.
import os
import lit.formats

config.name = "pyasc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".s", ".py", ".test", ".graph", ".loop", ".te", ".yaml", ".json"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
# test outputs go to the build tree, never next to the sources
config.test_exec_root = os.path.join(lit_config.params.get("bin_dir", "/tmp"), "..", "lit-output")

bin_dir = lit_config.params.get("bin_dir", "")
filecheck = lit_config.params.get("filecheck", "FileCheck")
python = lit_config.params.get("python", "/usr/bin/python3")
src_root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

for tool in ["pyasc", "ascop", "asc-as", "asc-objdump", "asc-opt", "asc-sim", "asc-target", "asc-omcheck"]:
    config.substitutions.append(("%" + tool, os.path.join(bin_dir, tool)))
config.substitutions.append(("%bindir", bin_dir))
config.substitutions.append(("FileCheck", filecheck))
config.substitutions.append(("%python", python))
config.substitutions.append(("%srcroot", src_root))
config.environment["PYASC_TARGET_DIR"] = os.path.join(src_root, "targets")
# FileCheck's companions (not, count) live beside it
config.environment["PATH"] = os.path.dirname(filecheck) + os.pathsep + config.environment.get("PATH", os.environ.get("PATH", ""))
config.environment["PYTHONPATH"] = os.path.join(src_root, "python")

# the build has the Halide CPU backend (cmake -DPYASC_WITH_CPU=ON, the default)
if lit_config.params.get("cpu_backend", "ON").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("cpu-backend")

# the browser the report test opens pages in (scripts/install-deps.sh installs it)
import shutil  # noqa: E402

if shutil.which("chromium"):
    config.available_features.add("chromium")

# a Dask distributed cluster can be started (Debian python3-distributed, scripts/install-deps.sh)
import subprocess  # noqa: E402

if shutil.which("dask-scheduler") and subprocess.run([python, "-c", "import distributed"], capture_output=True).returncode == 0:
    config.available_features.add("dask")
