// The Python binding: pyasc.compile / pyasc.load give a Model that NumPy code calls with ndarrays.
//
//   m = pyasc.compile("prog.py", entry="f", inputs={"a": ("float32", [1024, 1024])}, target="ascend910b")
//   y = m(x)                      # the CPU backend when built, else the simulator
//   y = m.run(x, backend="sim")   # outputs by name; m.stats has cycles, pipe utilisation, energy
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>

#include "runtime/Model.h"
#include "sdk/model/ModelWriter.h"
#include "sdk/support/AtomicFile.h"
#include "tools/pyasc/CompileFlags.h"

namespace py = pybind11;

namespace pyasc::binding {

namespace {

[[noreturn]] void raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

// Runs `f`, turning the compiler's and runtime's errors into Python exceptions.
template <typename F>
auto translated(F&& f) {
  try {
    return f();
  } catch (const CompileError& e) {
    const std::string& message = e.diagnostic().message;
    raise(message.rfind("MemoryError:", 0) == 0 ? PyExc_MemoryError : PyExc_ValueError, tool::locatedLine(e.diagnostic()));
  } catch (const py::error_already_set&) {
    throw;
  } catch (const std::exception& e) {
    raise(PyExc_RuntimeError, e.what());
  }
}

// The DType of a NumPy dtype, from its kind, size and byte order (its name, str(dtype), is computed
// in Python); false for another byte order than the host's.
bool dtypeOf(const py::dtype& d, DType& out) {
  const char order = d.byteorder();  // '=' native, '|' not applicable, '<' or '>' explicit
  const char native = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '<' : '>';
  if (order != '=' && order != '|' && order != native) return false;
  const auto size = d.itemsize();
  switch (d.kind()) {
    case 'b': out = DType::Bool; return size == 1;
    case 'i':
      switch (size) {
        case 1: out = DType::Int8; return true;
        case 2: out = DType::Int16; return true;
        case 4: out = DType::Int32; return true;
        case 8: out = DType::Int64; return true;
        default: return false;
      }
    case 'u': out = DType::UInt8; return size == 1;
    case 'f': out = size == 2 ? DType::Float16 : size == 4 ? DType::Float32 : DType::Float64; return size == 2 || size == 4 || size == 8;
    default: return false;
  }
}

// The NumPy dtype of a DType, made once (kept to the end of the process: a static's destructor
// would run after the interpreter has gone).
const py::dtype& numpyDType(DType t) {
  static const auto* made = [] {
    auto* all = new std::vector<py::dtype>;
    for (int k = 0; k < kDTypeCount; ++k) all->emplace_back(dtypeName(static_cast<DType>(k)));
    return all;
  }();
  return made->at(static_cast<size_t>(t));
}

// A C-ordered array of the input's dtype (a copy only when the layout is not C order) and its view.
std::pair<py::array, NpyView> toView(const py::handle& object, const model::Tensor& tensor) {
  py::array array = py::array::ensure(object, py::array::c_style);
  if (!array) raise(PyExc_TypeError, "input '" + tensor.name + "' must be an array, found " + std::string(py::str(py::type::of(object))));
  NpyView v;
  // an input the program declared float64 also takes float64 (the runtime rounds it to float32)
  if (!dtypeOf(array.dtype(), v.dtype) || (v.dtype != tensor.dtype && v.dtype != tensor.declared)) {
    const std::string dtype = py::str(array.dtype());
    const std::string declared = tensor.declared ? std::string(" or ") + dtypeName(*tensor.declared) : "";
    raise(PyExc_TypeError, "input '" + tensor.name + "' is " + dtype + "; the model takes " + dtypeName(tensor.dtype) + declared +
                               " (convert it with .astype(np." + dtypeName(tensor.dtype) + "))");
  }
  for (py::ssize_t k = 0; k < array.ndim(); ++k) v.shape.push_back(array.shape(k));
  v.data = static_cast<const uint8_t*>(array.data());
  return {array, v};
}

// An ndarray owning the output's bytes (no copy).
py::array toArray(NpyArray&& a) {
  auto* owner = new ArrayBytes(std::move(a.data));
  py::capsule free(owner, [](void* p) { delete static_cast<ArrayBytes*>(p); });
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
  return py::array(numpyDType(a.dtype), shape, owner->data(), free);
}

std::string shapeText(const std::vector<model::Dim>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i].max);
  return s + "]";
}

}  // namespace

class PyModel {
 public:
  PyModel(pyasc::Model model, std::string source) : model_(std::move(model)), source_(std::move(source)) {
    backend_ = pyasc::Model::hasCpuBackend() ? "cpu" : "sim";
    for (const model::Tensor* t : model_.inputs())
      if (t->role != model::TensorRole::RandomInput) bindable_.push_back(t);
  }
  // bindable_ points into model_: moved along with it, never copied
  PyModel(PyModel&&) = default;
  PyModel(const PyModel&) = delete;

  // Positional arguments bind the inputs a caller provides (np.random inputs are drawn as NumPy
  // would) in order; keywords bind them by name.
  py::dict run(const py::args& args, const py::kwargs& kwargs, const std::string& backendName) {
    py::dict outputs;
    for (auto& [name, array] : runOutputs(args, kwargs, backendName)) outputs[py::str(name)] = toArray(std::move(array));
    return outputs;
  }

  py::object call(const py::args& args, const py::kwargs& kwargs) {
    std::vector<std::pair<std::string, NpyArray>> outputs = runOutputs(args, kwargs, backend_);
    if (outputs.size() == 1) return toArray(std::move(outputs[0].second));
    py::tuple values(outputs.size());
    for (size_t k = 0; k < outputs.size(); ++k) values[k] = toArray(std::move(outputs[k].second));
    return std::move(values);
  }

 private:
  // The outputs of a run, in the model's order.
  std::vector<std::pair<std::string, NpyArray>> runOutputs(const py::args& args, const py::kwargs& kwargs, const std::string& backendName) {
    const std::vector<const model::Tensor*>& bindable = bindable_;
    if (args.size() > bindable.size()) {
      raise(PyExc_TypeError, "the model takes " + std::to_string(bindable.size()) + " input(s), " +
                                 std::to_string(args.size()) + " given");
    }
    std::vector<py::array> held;  // the arrays the views point into, alive until the run ends
    // every call binds its inputs again: the views point into `held`, also when a binding or the
    // run throws (a view left bound would point into a released array at the next call)
    struct ForgetViews {
      pyasc::Model& model;
      ~ForgetViews() { model.forgetInputViews(); }
    } forget{model_};
    for (size_t k = 0; k < args.size(); ++k) held.push_back(setInput(*bindable[k], args[k]));
    for (const auto& [key, value] : kwargs) {
      const std::string name = py::str(key);
      const model::Tensor* t = nullptr;
      for (const model::Tensor* in : model_.inputs())
        if (in->name == name) t = in;
      if (!t) translated([&] { model_.setInput(name, NpyArray{}); return 0; });  // the runtime's message
      held.push_back(setInput(*t, value));
    }
    RunOptions options;
    if (!parseBackend(backendName, options.backend)) raise(PyExc_ValueError, "backend must be 'sim' or 'cpu', found '" + backendName + "'");
    RunResult result = translated([&] {
      py::gil_scoped_release release;
      return model_.run(options);
    });
    stats_ = result.stats;
    lastBackend_ = options.backend;
    return std::move(result.outputs);
  }

 public:

  py::dict stats() const {
    py::dict s;
    if (lastBackend_ == Backend::Cpu) {
      s["backend"] = "cpu";
      s["compile_ms"] = stats_.cpuCompileMillis;
      s["run_ms"] = stats_.cpuRunMillis;
      s["pipelines"] = stats_.cpuPipelines;
      s["cached_pipelines"] = stats_.cpuCachedPipelines;
      return s;
    }
    s["backend"] = "sim";
    s["cycles"] = stats_.cycles;
    s["launches"] = stats_.launches;
    s["energy_uj"] = stats_.energyPJ * 1e-6;
    s["macs"] = stats_.macs;
    py::dict pipes;
    const double denominator = static_cast<double>(stats_.cycles) * stats_.maxBlockDim;
    for (int p = 1; p < isa::kPipeCount; ++p) {
      pipes[isa::pipeName(static_cast<isa::Pipe>(p))] = denominator > 0 ? stats_.busyCycles[static_cast<size_t>(p)] / denominator : 0.0;
    }
    s["pipe_utilisation"] = pipes;
    py::dict bytes;
    for (int p = 0; p < kDmaPathCount; ++p) bytes[dmaPathName(static_cast<DmaPath>(p))] = stats_.bytes[static_cast<size_t>(p)];
    s["bytes"] = bytes;
    return s;
  }

  void setInputShape(const py::object& name, const std::vector<int64_t>& shape) {
    std::string input;
    if (!name.is_none()) {
      input = py::str(name);
    } else {
      // the program's parameters (inputs drawn from np.random are the model's own)
      std::vector<const model::Tensor*> ins;
      for (const model::Tensor* t : model_.inputs())
        if (t->role == model::TensorRole::Input) ins.push_back(t);
      if (ins.size() != 1) raise(PyExc_TypeError, "the model has " + std::to_string(ins.size()) + " inputs: name the one to shape");
      input = ins[0]->name;
    }
    translated([&] {
      model_.setInputShape(input, shape);
      return 0;
    });
  }

  void save(const std::string& path) const {
    translated([&] {
      model::writeModel(path, model_.image());
      return 0;
    });
  }

  py::list tensors(bool inputs) const {
    py::list list;
    for (const model::Tensor* t : inputs ? model_.inputs() : model_.outputs()) {
      std::vector<int64_t> shape;
      for (const auto& d : t->shape) shape.push_back(d.max);
      list.append(py::make_tuple(t->name, dtypeName(t->dtype), shape));
    }
    return list;
  }

  std::string repr() const {
    std::string s = "<pyasc.Model " + source_ + " for " + model_.target().name + ":";
    for (const model::Tensor* t : model_.inputs()) s += " " + t->name + ": " + dtypeName(t->dtype) + shapeText(t->shape);
    return s + ">";
  }

  std::string backend_;

 private:
  py::array setInput(const model::Tensor& t, const py::handle& value) {
    auto [array, view] = toView(value, t);
    translated([&] {
      model_.setInputView(t.name, view);
      return 0;
    });
    return array;
  }

  pyasc::Model model_;
  std::vector<const model::Tensor*> bindable_;  // the inputs a caller binds (not drawn at random), in order
  std::string source_;
  RunStats stats_;
  Backend lastBackend_ = Backend::Simulator;
};

PyModel compileModel(const std::string& path, const std::string& entry, const py::dict& inputs, const py::dict& consts,
                     const std::string& target, const std::string& optLevel, const std::vector<std::string>& customOps,
                     bool memoryOpt, const std::string& dynamicDims) {
  tool::CompileFlags flags;
  flags.dynamicDims = dynamicDims;
  flags.input = path;
  flags.entry = entry;
  flags.target = target;
  if (optLevel != "O0" && optLevel != "O1" && optLevel != "O2") raise(PyExc_ValueError, "opt_level must be 'O0', 'O1' or 'O2', found '" + optLevel + "'");
  flags.optLevel = optLevel;
  flags.customOpConfigs = customOps;
  flags.memoryOpt = memoryOpt;
  for (const auto& [name, spec] : inputs) {  // {"a": ("float32", [64, 128])} → a:float32[64,128]
    py::tuple t = py::reinterpret_borrow<py::tuple>(spec);
    if (!py::isinstance<py::tuple>(spec) || t.size() != 2) {
      raise(PyExc_TypeError, "inputs['" + std::string(py::str(name)) + "'] must be (dtype, shape), such as (\"float32\", [64, 128])");
    }
    std::string text = std::string(py::str(name)) + ":" + std::string(py::str(t[0])) + "[";
    bool first = true;
    for (const auto& d : t[1]) {
      text += (first ? "" : ",") + std::string(py::str(d));
      first = false;
    }
    flags.inputs.push_back(text + "]");
  }
  for (const auto& [name, value] : consts) flags.consts.push_back(std::string(py::str(name)) + "=" + std::string(py::str(value)));
  codegen::CompileResult result;
  std::string emitted;
  tool::CompileOutcome outcome = tool::compileSource(flags, result, emitted);
  switch (outcome.failure) {
    case tool::CompileFailure::None: break;
    case tool::CompileFailure::Syntax: raise(PyExc_SyntaxError, outcome.firstError);
    case tool::CompileFailure::Type: raise(PyExc_TypeError, outcome.firstError);
    case tool::CompileFailure::Memory: raise(PyExc_MemoryError, outcome.firstError);
    case tool::CompileFailure::Value: raise(PyExc_ValueError, outcome.firstError);
  }
  if (!outcome.printed.empty()) {  // warnings
    if (PyErr_WarnEx(PyExc_UserWarning, outcome.printed.c_str(), 1) != 0) throw py::error_already_set();
  }
  return translated([&] { return PyModel(pyasc::Model::fromImage(std::move(result.model), path), path); });
}

}  // namespace pyasc::binding

PYBIND11_MODULE(pyasc_native, m) {
  using pyasc::binding::PyModel;
  m.doc() = "pyasc's compiler and runtime for Python: compile NumPy programs for the NPU and run them on the "
            "simulator or the host";
  m.def("compile", &pyasc::binding::compileModel, py::arg("path"), py::kw_only(), py::arg("entry") = "",
        py::arg("inputs") = py::dict(), py::arg("consts") = py::dict(), py::arg("target") = "ascend310",
        py::arg("opt_level") = "O2", py::arg("custom_op_config") = std::vector<std::string>{},
        py::arg("enable_memory_opt") = false, py::arg("dynamic_dims") = "",
        "Compiles a program (a script, or the function `entry` with `inputs` {name: (dtype, shape)}) into a Model; "
        "shapes may name dimensions (('float32', ['N', 'H', 'W', 3])) whose ranges `dynamic_dims` gives "
        "('1-4,224-256,224-256' or 'N=1-4,...').");
  m.def("load", [](const std::string& path) {
    return pyasc::binding::translated([&] { return PyModel(pyasc::Model::load(path), path); });
  }, py::arg("path"), "Loads a model file (.om).");
  m.attr("has_cpu_backend") = pyasc::Model::hasCpuBackend();
  py::class_<PyModel>(m, "Model")
      .def("__call__", &PyModel::call, "Runs the model on its backend; one output as an array, several as a tuple.")
      .def("run", [](PyModel& self, const py::args& args, const py::kwargs& kwargs) {
        py::kwargs inputs;
        std::string backend = self.backend_;
        for (const auto& [key, value] : kwargs) {
          if (std::string(py::str(key)) == "backend") backend = py::str(value);
          else inputs[key] = value;
        }
        return self.run(args, inputs, backend);
      }, "Runs the model (backend='sim' or 'cpu'); returns {output name: array}.")
      .def_property_readonly("stats", &PyModel::stats, "What the last run measured.")
      .def_readwrite("backend", &PyModel::backend_,
                     "'cpu' (the default when built) or 'sim'.")
      .def("set_input_shape", &PyModel::setInputShape, py::arg("name") = py::none(), py::kw_only(), py::arg("shape"),
           "Fixes an input's runtime shape: a static input's own, or for a model compiled with dynamic_dims any shape in "
           "its ranges (binding an array later rebinds its dimensions to the array's shape).")
      .def("save", &PyModel::save, py::arg("path"), "Writes the model file (.om).")
      .def_property_readonly("inputs", [](const PyModel& self) { return self.tensors(true); })
      .def_property_readonly("outputs", [](const PyModel& self) { return self.tensors(false); })
      .def("__repr__", &PyModel::repr);
}
