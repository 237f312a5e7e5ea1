// nutcore._core: the private extension module. python/nutcore/__init__.py re-exports the API.
#include <pybind11/pybind11.h>

#include "core/types.h"

namespace nutcore::bindings {
namespace py = pybind11;
void bind_auf_die_nuesse(py::module_& m);
void bind_purzelbaum(py::module_& m);
}  // namespace nutcore::bindings

#define STRINGIFY(x) #x
#define MACRO_STRINGIFY(x) STRINGIFY(x)

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  m.doc() = "nutcore native core: game rules and search";
  m.attr("CHANCE") = nutcore::kChancePlayer;
  m.attr("TERMINAL") = nutcore::kTerminalPlayer;
  m.attr("__version__") = MACRO_STRINGIFY(VERSION_INFO);
  nutcore::bindings::bind_auf_die_nuesse(m);
  nutcore::bindings::bind_purzelbaum(m);
}
