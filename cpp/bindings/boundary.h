// What every binding needs at the Python boundary: native work that Ctrl-C can interrupt, stop
// tokens, and argument checks that turn any bad value into a clear ValueError.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/stop.h"

namespace nutcore::bindings {

namespace py = pybind11;

// Python objects the bindings take as they come and check themselves (int_arg, seed_arg, bytes_arg
// below), so that a bad value is a ValueError naming it. Each is named, in the signatures pybind11
// writes and so in the stub (tools/stubgen.py), by the types those checks accept.
inline int any_object(PyObject*) { return 1; }
// Hidden, as pybind11's own classes are (a base more hidden than its class is a warning).
#if defined(__GNUC__)
#define NUTCORE_HIDDEN __attribute__((visibility("hidden")))
#else
#define NUTCORE_HIDDEN
#endif
template <typename Name, int (*Check)(PyObject*) = any_object>
class NUTCORE_HIDDEN Typed : public py::object {
  PYBIND11_OBJECT_DEFAULT(Typed, object, Check)
};
#define NUTCORE_TYPE_NAME(Tag, text)                           \
  struct Tag {                                                 \
    static constexpr auto name = py::detail::const_name(text); \
  }
NUTCORE_TYPE_NAME(IndexName, "typing.SupportsIndex");
NUTCORE_TYPE_NAME(IndexOrNoneName, "typing.SupportsIndex | None");
NUTCORE_TYPE_NAME(RealName, "typing.SupportsFloat");
NUTCORE_TYPE_NAME(BytesName, "bytes | bytearray | memoryview");
using IndexArg = Typed<IndexName>;  // int_arg, seed_arg: an int or anything with __index__
using IndexOrNoneArg = Typed<IndexOrNoneName>;
using RealArg = Typed<RealName>;    // float_arg
using BytesArg = Typed<BytesName>;  // bytes_arg
// An object of a bound class or None, checked by the function (`T | None` in the stub).
template <typename T>
struct OrNoneName {
  static constexpr auto name = py::detail::make_caster<T>::name + py::detail::const_name(" | None");
};
template <typename T>
using OrNoneArg = Typed<OrNoneName<T>>;

// An optional reference to a bound object (a stop token, a search tree): None or the object, which
// stays the caller's; `T | None = None` in the stub.
template <typename T>
using Maybe = std::optional<std::reference_wrapper<T>>;
template <typename T>
T* maybe_ptr(const Maybe<T>& m) {
  return m ? &m->get() : nullptr;
}

// A JSON object as Python data (dict[str, Any] in the stub).
using JsonDict = py::typing::Dict<py::str, py::object>;

// Per-move statistics as Python dicts (a search's result, a running search's progress).
inline py::list action_stats_to_py(const std::vector<ActionTally>& stats) {
  py::list actions;
  for (const auto& s : stats) {
    py::dict d;
    d["action"] = s.action;
    d["visits"] = s.visits;
    d["mean_value"] = s.mean_value;
    actions.append(d);
  }
  return actions;
}

// nutcore.StopToken: hand one to a search, call stop() from another thread (an engine's "stop"
// command, a web page's button) and the search ends within milliseconds.
struct StopToken {
  StopFlag flag{false};
  SearchProgress progress;  // the live root statistics of the search using this token
  void stop() { flag.store(true); }
  void reset() { flag.store(false); }
  bool stopped() const { return flag.load(); }
};

// Runs `work(stop_flag)` on a worker thread with the GIL released while the calling thread waits,
// waking every 10 ms to run Python's signal handlers (Ctrl-C) and to look at `token`. On a signal
// whose handler raises (KeyboardInterrupt) the flag is set, the worker is joined and the handler's
// exception is raised; a stop token only sets the flag, and the work returns what it has (or throws
// Stopped). Python signal handlers run only in the main thread: called from another thread, only
// the token stops the work. The work must not touch Python objects.
template <typename F>
auto run_interruptible(F&& work, const StopToken* token = nullptr) {
  using Result = std::invoke_result_t<F&, const StopFlag*>;
  StopFlag stop{token && token->stopped()};
  std::mutex mutex;
  std::condition_variable finished_cv;
  bool finished = false;
  std::optional<Result> result;
  std::exception_ptr failure;
  std::optional<py::error_already_set> interrupt;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        result.emplace(work(&stop));
      } catch (...) {
        failure = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        finished = true;
      }
      finished_cv.notify_one();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished_cv.wait_for(lock, std::chrono::milliseconds(10), [&] { return finished; })) {
      if (stop.load()) continue;
      lock.unlock();
      bool requested = token && token->stopped();
      {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) interrupt.emplace();  // takes the pending exception
      }
      if (requested || interrupt) stop.store(true);
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupt) throw std::move(*interrupt);
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

inline std::string py_repr(const py::handle& obj) {
  std::string text = py::repr(obj).cast<std::string>();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

// An integer argument as a Python int: an int or anything with __index__ (numpy integers), never
// a bool or a float (ValueError).
inline py::int_ index_arg(const py::handle& obj, const std::string& name) {
  if (PyBool_Check(obj.ptr())) throw std::invalid_argument(name + " must be an integer, not a bool");
  PyObject* index = PyNumber_Index(obj.ptr());
  if (!index) {
    PyErr_Clear();
    throw std::invalid_argument(name + " must be an integer, got " + py_repr(obj));
  }
  return py::reinterpret_steal<py::int_>(index);
}

// An integer in [lo, hi]; out of range, whatever its size, it is a ValueError.
inline int64_t int_arg(const py::handle& obj, const std::string& name, int64_t lo, int64_t hi) {
  const py::int_ index = index_arg(obj, name);
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow || value < lo || value > hi)
    throw std::invalid_argument(name + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) +
                                "): " + py_repr(obj));
  return value;
}

// A real number in [lo, hi]: an int or float (numpy's too), never a bool, NaN or out of range.
inline double float_arg(const py::handle& obj, const std::string& name, double lo, double hi) {
  if (PyBool_Check(obj.ptr()) || !(PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyNumber_Check(obj.ptr())))
    throw std::invalid_argument(name + " must be a number, got " + py_repr(obj));
  const double value = PyFloat_AsDouble(obj.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw std::invalid_argument(name + " must be a number, got " + py_repr(obj));
  }
  if (!(value >= lo && value <= hi))
    throw std::invalid_argument(name + " must be in [" + py::repr(py::float_(lo)).cast<std::string>() + ", " +
                                py::repr(py::float_(hi)).cast<std::string>() + "], got " + py_repr(obj));
  return value;
}

// A seed: any integer in 0..2**64-1 (so random.getrandbits(64) always works).
inline uint64_t seed_arg(const py::handle& obj) {
  const py::int_ index = index_arg(obj, "seed");
  const unsigned long long value = PyLong_AsUnsignedLongLong(index.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw std::invalid_argument("seed is out of range (0..2**64-1): " + py_repr(obj));
  }
  return value;
}

// bytes, bytearray or memoryview; anything else is a TypeError that says what was expected.
inline std::string bytes_arg(const py::handle& obj, const std::string& name) {
  if (PyBytes_Check(obj.ptr())) return std::string(py::reinterpret_borrow<py::bytes>(obj));
  if (PyByteArray_Check(obj.ptr()) || PyMemoryView_Check(obj.ptr())) {
    auto copy = py::reinterpret_steal<py::object>(PyBytes_FromObject(obj.ptr()));
    if (!copy) throw py::error_already_set();
    return std::string(py::reinterpret_borrow<py::bytes>(copy));
  }
  throw py::type_error(name + " must be bytes (as state.serialize() gives), got " +
                       std::string(Py_TYPE(obj.ptr())->tp_name));
}

}  // namespace nutcore::bindings

namespace pybind11::detail {
template <typename Name, int (*Check)(PyObject*)>
struct handle_type_name<nutcore::bindings::Typed<Name, Check>> {
  static constexpr auto name = Name::name;
};
}  // namespace pybind11::detail
