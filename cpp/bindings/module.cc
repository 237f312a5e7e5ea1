// nutcore._core: the private extension module. python/nutcore/__init__.py re-exports the API.
#include <pybind11/pybind11.h>

#include <cctype>
#include <string>

#include "bindings/boundary.h"
#include "bindings/engine_binding.h"
#include "bindings/game_binding.h"
#include "core/types.h"
#include "engine/any.h"

// One line per game in games.inc, which CMake writes from its NUTCORE_GAMES list: each game's
// bind_<g> (generated/bind_<g>.cc, also generated) fills its hooks for the generic Game and State
// classes, and adds the game's own test hooks where it has any (cpp/games/<g>/python_testing.cc).
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
  // Hooks some tests read (a game's python_testing.cc adds its own): private, out of the module's face.
  m.def_submodule("_testing", "Hooks for nutcore's own tests; not an API.");
  nutcore::bindings::declare_game_classes(m);  // first: the engine's functions name State and Game
  nutcore::bindings::bind_engine(m);
  nutcore::bindings::bind_game_classes(m);
#define NUTCORE_GAME(name) nutcore::bindings::bind_##name(m);
#include "games.inc"
#undef NUTCORE_GAME
  // The classes each game had before the one pair (e.g. AufDieNuesseState): deprecated names of
  // nutcore.Game and nutcore.State, found on access (PEP 562), with a DeprecationWarning.
  py::dict old_names;
  for (const auto& info : nutcore::engine::game_infos()) {
    std::string prefix;
    bool upper = true;
    for (const char c : info.name) {
      if (c != '_') prefix += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = c == '_';
    }
    old_names[py::str(prefix + "Game")] = m.attr("Game");
    old_names[py::str(prefix + "State")] = m.attr("State");
  }
  m.def("__getattr__", [old_names](const std::string& name) -> py::object {
    if (!old_names.contains(name)) throw py::attribute_error("module 'nutcore._core' has no attribute '" + name + "'");
    const std::string generic = py::str(old_names[py::str(name)].attr("__name__"));
    if (PyErr_WarnEx(PyExc_DeprecationWarning,
                     (name + " is deprecated: every game's class is now nutcore." + generic).c_str(), 1) < 0)
      throw py::error_already_set();
    return old_names[py::str(name)];
  });
}
