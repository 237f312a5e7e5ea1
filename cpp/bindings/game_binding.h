// What the Python classes nutcore.Game and nutcore.State share with each game's hooks: JSON at the
// boundary, playouts run inside C++, and the per-game table (GameHooks) through which the one
// generic pair reaches a game's own template code. Everything reachable from Python is checked:
// bad input raises ValueError and leaves the state unchanged; nothing aborts the interpreter.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/boundary.h"
#include "bindings/engine_binding.h"
#include "core/game_concept.h"
#include "engine/model.h"
#include "search/random_playout.h"

namespace nutcore::bindings {

namespace py = pybind11;

// Python dict <-> nutcore::Json through the json module: the JSON text is the one canonical form.
// numpy numbers are taken as the Python numbers they stand for; NaN and infinities are refused.
inline Json json_from_py(const py::handle& obj) {
  const auto numbers = py::module_::import("numbers");
  const py::object integral = numbers.attr("Integral"), real = numbers.attr("Real");
  const py::cpp_function plain([integral, real](const py::handle& o) -> py::object {
    if (py::isinstance(o, integral)) return py::reinterpret_steal<py::object>(PyNumber_Index(o.ptr()));
    if (py::isinstance(o, real)) return py::float_(py::reinterpret_borrow<py::object>(o));
    throw py::type_error(std::string("a ") + Py_TYPE(o.ptr())->tp_name + " is not JSON data");
  });
  std::string text;
  try {
    text = py::module_::import("json")
               .attr("dumps")(obj, py::arg("allow_nan") = false, py::arg("default") = plain)
               .template cast<std::string>();
  } catch (py::error_already_set& e) {
    // Only the exception's own message: what() would append a Python traceback.
    if (e.matches(PyExc_RecursionError)) throw std::invalid_argument("not JSON data: nested too deeply");
    throw std::invalid_argument("not JSON data: " + py::str(e.value()).cast<std::string>());
  }
  return Json::parse(text);
}
inline py::object json_to_py(const Json& j) { return py::module_::import("json").attr("loads")(j.dump()); }
// A JSON object as a dict (typed so in the stub).
inline JsonDict json_object_to_py(const Json& j) { return JsonDict(json_to_py(j)); }

// What playouts return: (returns per game and seat, lengths).
using PlayoutArrays = py::typing::Tuple<py::array_t<double>, py::array_t<int64_t>>;

// n games from `start` to the end, each by `play(game, state, rng)` (which returns its length),
// inside C++ with the GIL released: (returns, lengths) as numpy arrays. Game i uses a generator
// seeded from (seed, i), so results do not depend on how the work is split.
template <GameConcept G, typename Play>
PlayoutArrays playouts(const std::shared_ptr<const G>& game, const typename G::StateType& start, int64_t n,
                       uint64_t seed, Play play) {
  const int players = game->num_players();
  py::array_t<double> returns({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(players)});
  py::array_t<int64_t> lengths(static_cast<py::ssize_t>(n));
  double* r = returns.mutable_data();
  int64_t* len = lengths.mutable_data();
  run_interruptible([&](const StopFlag* stop) {
    for (int64_t i = 0; i < n; ++i) {
      if (stop_requested(stop)) throw Stopped();
      Rng rng(playout_seed(seed, i));
      auto state = start;
      len[i] = play(*game, state, rng);
      game->returns(state, r + i * players);
    }
    return true;
  });
  return PlayoutArrays(py::make_tuple(returns, lengths));
}

// nutcore.Game: any declared game's engine model (immutable, shared by its states).
struct PyGame {
  std::shared_ptr<const engine::AnyGame> model;
};

// What the Python surface needs of a game beyond engine::AnyGame and AnyState: its playout loops
// and its policies, instantiated in the game's generated binding unit (game_hooks.h), so that a
// playout runs inside the game's template code. A policy the game lacks is left empty.
struct NUTCORE_HIDDEN GameHooks {  // hidden, as the pybind11 types it holds are
  // n uniformly random games from `start` (the initial state if null): (returns, lengths).
  std::function<PlayoutArrays(const engine::AnyGame&, const engine::AnyState* start, int64_t n, uint64_t seed)>
      random_playouts;
  // For the tests of random_playout's contract (State._random_action_pair).
  std::function<py::tuple(const engine::AnyState&, uint64_t seed)> random_action_pair;
  // For the test of sample_chance's contract (State._sample_chance).
  std::function<Action(const engine::AnyState&, uint64_t seed)> sample_chance;
  std::function<std::vector<double>(const engine::AnyState&)> evaluate;
  std::function<Action(const engine::AnyState&)> rollout_action;
  std::function<PlayoutArrays(const engine::AnyState&, int64_t n, uint64_t seed)> greedy_playouts;
  std::function<std::vector<Action>(const engine::AnyState&)> ordered_actions;
};

// The table, filled by each game's bind_<g> before the module is used.
void register_game_hooks(const std::string& game, GameHooks hooks);
const GameHooks& game_hooks(const engine::AnyGame& game);

// nutcore.Game and nutcore.State: the classes first, so that every signature can name them (and
// they name the engine's classes), then their methods and the policy functions over the hooks.
void declare_game_classes(py::module_& m);
void bind_game_classes(py::module_& m);

}  // namespace nutcore::bindings
