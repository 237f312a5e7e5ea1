// The generic engine bindings (engine_binding.cc), and what other bindings share of them.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <typeinfo>

#include "bindings/boundary.h"
#include "engine/any.h"

// Every game's states are the one Python class nutcore.State (game_binding.cc): a state returned
// to Python is wrapped as that, with no lookup of its dynamic type (StateModel<D>, which is not
// bound), which would cost each clone() or new_initial_state() a failed search of pybind11's type
// registry.
template <>
struct pybind11::polymorphic_type_hook<nutcore::engine::AnyState> {
  static const void* get(const nutcore::engine::AnyState* src, const std::type_info*& type) {
    type = nullptr;
    return src;
  }
};

namespace nutcore::bindings {

namespace py = pybind11;

// nutcore.SearchTree's native part: a kept tree, used by one search at a time.
struct PySearchTree {
  engine::KeptTree tree;
  int users = 0;  // searches using it now (counted under the GIL)
  engine::AnyKeptTree* for_state(const engine::AnyState& state);
};

// nutcore.VectorEnv's native part (python/nutcore/vector.py allocates the arrays it writes).
struct PyVectorEnv {
  std::unique_ptr<engine::AnyVectorEnv> env;
};

JsonDict outcome_to_py(const engine::SearchResult& r);

void bind_engine(py::module_& m);

}  // namespace nutcore::bindings
