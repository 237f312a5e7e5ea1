// nutcore._core: the private extension module. python/nutcore/__init__.py re-exports the API.
#include <pybind11/pybind11.h>

#include "bindings/boundary.h"
#include "bindings/engine_binding.h"
#include "core/types.h"

// One line per game in games.inc, which CMake writes from its NUTCORE_GAMES list: each game's
// cpp/games/<g>/python.cc defines bind_<g>.
namespace nutcore::bindings {
namespace py = pybind11;
#define NUTCORE_GAME(name) void bind_##name(py::module_& m);
#include "games.inc"
#undef NUTCORE_GAME
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
      .def_property_readonly("stopped", &StopToken::stopped)
      .def(
          "progress",
          [](StopToken& token) -> std::optional<nutcore::bindings::JsonDict> {
            std::lock_guard<std::mutex> lock(token.progress.mutex);
            if (token.progress.actions.empty()) return std::nullopt;
            nutcore::bindings::JsonDict out;
            out["iterations"] = token.progress.iterations;
            out["actions"] = nutcore::bindings::action_stats_to_py(token.progress.actions);
            return out;
          },
          "The root statistics of the MCTS or ISMCTS search using this token, as it runs (every 0.2 s; its "
          "first thread's share with several threads), or None before its first report.");
  py::register_exception<nutcore::Stopped>(m, "SearchStopped");
  // Hooks some tests read (a game's python.cc adds its own): private, out of the module's face.
  m.def_submodule("_testing", "Hooks for nutcore's own tests; not an API.");
  nutcore::bindings::bind_engine(m);  // first: the games' classes derive from its _AnyState
#define NUTCORE_GAME(name) nutcore::bindings::bind_##name(m);
#include "games.inc"
#undef NUTCORE_GAME
}
