// nutcore._core: the private extension module. python/nutcore/__init__.py re-exports the API.
#include <pybind11/pybind11.h>

#include "bindings/boundary.h"
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
  using nutcore::bindings::StopToken;
  py::class_<StopToken>(m, "StopToken", "Pass to a search; stop() from any thread ends it early.")
      .def(py::init<>())
      .def("stop", &StopToken::stop, "Ask the searches using this token to end now.")
      .def("reset", &StopToken::reset, "Clear the request, to use the token again.")
      .def_property_readonly("stopped", &StopToken::stopped);
  py::register_exception<nutcore::Stopped>(m, "SearchStopped");
  nutcore::bindings::bind_auf_die_nuesse(m);
  nutcore::bindings::bind_purzelbaum(m);
}
