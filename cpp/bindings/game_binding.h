// One template binds every game: type erasure happens here, once, at the Python boundary.
// Everything reachable from Python is checked: bad input raises ValueError and leaves the state
// unchanged; nothing aborts the interpreter.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game_concept.h"
#include "search/random_playout.h"

namespace nutcore::bindings {

namespace py = pybind11;

// Python dict <-> nutcore::Json through the json module: the JSON text is the one canonical form.
inline Json json_from_py(const py::handle& obj) {
  std::string text;
  try {
    text = py::module_::import("json").attr("dumps")(obj, py::arg("allow_nan") = false).template cast<std::string>();
  } catch (py::error_already_set& e) {
    throw std::invalid_argument(std::string("not JSON-serializable: ") + e.what());
  }
  return Json::parse(text);
}
inline py::object json_to_py(const Json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

template <GameConcept G>
struct PyState {
  std::shared_ptr<const G> game;
  typename G::StateType state;
  std::vector<Action> history;

  bool is_legal(Action a) const {
    if (game->is_chance(state)) {
      typename G::Chances outcomes;
      game->chance_outcomes(state, outcomes);
      for (const auto& o : outcomes)
        if (o.action == a && o.probability > 0) return true;
      return false;
    }
    typename G::Actions legal;
    game->legal_actions(state, legal);
    for (Action b : legal)
      if (a == b) return true;
    return false;
  }

  std::vector<Action> legal_actions() const {
    typename G::Actions legal;
    game->legal_actions(state, legal);
    return std::vector<Action>(legal.begin(), legal.end());
  }

  std::vector<std::pair<Action, double>> chance_outcomes() const {
    typename G::Chances outcomes;
    game->chance_outcomes(state, outcomes);
    std::vector<std::pair<Action, double>> out;
    for (const auto& o : outcomes) out.emplace_back(o.action, o.probability);
    return out;
  }

  void apply_action(int64_t wide) {
    // Any Python int is accepted here so that every bad action is a ValueError, not a TypeError.
    const Action a = (wide < 0 || wide >= G::kNumDistinctActions) ? -1 : static_cast<Action>(wide);
    if (a < 0 || !is_legal(a)) {
      std::ostringstream msg;
      msg << "illegal action " << wide;
      if (a >= 0) msg << " (" << G::action_to_string(a) << ")";
      msg << " in " << G::kName << "; ";
      if (game->is_terminal(state)) {
        msg << "the game is over";
      } else {
        msg << (game->is_chance(state) ? "chance outcomes" : "legal actions") << ": [";
        bool first = true;
        auto add = [&](Action b) {
          msg << (first ? "" : ", ") << b << " (" << G::action_to_string(b) << ")";
          first = false;
        };
        if (game->is_chance(state))
          for (const auto& o : chance_outcomes()) add(o.first);
        else
          for (Action b : legal_actions()) add(b);
        msg << "]";
      }
      throw std::invalid_argument(msg.str());
    }
    game->apply(state, a);
    history.push_back(a);
  }

  std::vector<double> returns() const {
    double values[G::kMaxNumPlayers];
    game->returns(state, values);
    return std::vector<double>(values, values + game->num_players());
  }
  std::vector<int> scores() const {
    int points[G::kMaxNumPlayers];
    game->scores(state, points);
    return std::vector<int>(points, points + game->num_players());
  }
};

template <GameConcept G>
struct PyGame {
  std::shared_ptr<const G> game;

  PyState<G> wrap(const typename G::StateType& s) const { return PyState<G>{game, s, {}}; }

  // n random games played inside C++ with the GIL released. Game i uses a generator seeded from
  // (seed, i), so results do not depend on how the work is split.
  py::tuple random_playouts(long n, int64_t seed) const {
    if (n < 0) throw std::invalid_argument("random_playouts: n must be >= 0");
    const int players = game->num_players();
    py::array_t<double> returns({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(players)});
    py::array_t<int64_t> lengths(static_cast<py::ssize_t>(n));
    double* r = returns.mutable_data();
    int64_t* len = lengths.mutable_data();
    {
      py::gil_scoped_release release;
      for (long i = 0; i < n; ++i) {
        Rng rng(static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(i));
        auto state = game->new_initial_state();
        len[i] = random_playout(*game, state, rng);
        game->returns(state, r + i * players);
      }
    }
    return py::make_tuple(returns, lengths);
  }
};

template <GameConcept G>
void bind_game(py::module_& m, const char* game_class, const char* state_class) {
  using S = PyState<G>;
  using PG = PyGame<G>;
  py::class_<S>(m, state_class)
      .def("current_player", [](const S& s) { return s.game->current_player(s.state); })
      .def("is_chance_node", [](const S& s) { return s.game->is_chance(s.state); })
      .def("is_terminal", [](const S& s) { return s.game->is_terminal(s.state); })
      .def("legal_actions", &S::legal_actions)
      .def("chance_outcomes", &S::chance_outcomes)
      .def("apply_action", &S::apply_action, py::arg("action"))
      .def("action_to_string", [](const S&, int64_t a) {
        if (a < 0 || a >= G::kNumDistinctActions) throw std::invalid_argument("action " + std::to_string(a) + " is out of range");
        return G::action_to_string(static_cast<Action>(a));
      }, py::arg("action"))
      .def("string_to_action", [](const S&, const std::string& text) { return G::string_to_action(text); }, py::arg("text"))
      .def("returns", &S::returns)
      .def("scores", &S::scores)
      .def("history", [](const S& s) { return s.history; })
      .def("clone", [](const S& s) { return s; })
      .def("__copy__", [](const S& s) { return s; })
      .def("__deepcopy__", [](const S& s, py::dict) { return s; }, py::arg("memo"))
      .def("serialize", [](const S& s) { return py::bytes(s.game->serialize(s.state)); })
      .def("to_json", [](const S& s) { return json_to_py(s.game->to_json(s.state)); })
      .def("__str__", [](const S& s) { return s.game->to_string(s.state); })
      .def("__repr__", [](const S& s) {
        return std::string("<") + G::kName + " state, current player " + std::to_string(s.game->current_player(s.state)) + ">";
      })
      .def("__eq__", [](const S& a, const S& b) { return a.game->params_json().dump() == b.game->params_json().dump() && a.state == b.state; })
      .def("__hash__", [](const S&) -> py::ssize_t { throw py::type_error("nutcore states are mutable and unhashable"); });

  py::class_<PG>(m, game_class)
      .def(py::init([](const py::dict& params) {
        return PG{std::make_shared<const G>(G(G::params_from_json(json_from_py(params))))};
      }), py::arg("params"))
      .def_property_readonly_static("name", [](py::object) { return G::kName; })
      .def("num_players", [](const PG& g) { return g.game->num_players(); })
      .def("num_distinct_actions", [](const PG&) { return G::kNumDistinctActions; })
      .def_property_readonly("params", [](const PG& g) { return json_to_py(g.game->params_json()); })
      .def("new_initial_state", [](const PG& g) { return g.wrap(g.game->new_initial_state()); })
      .def("state_from_json", [](const PG& g, const py::object& d) { return g.wrap(g.game->from_json(json_from_py(d))); }, py::arg("data"))
      .def("deserialize_state", [](const PG& g, const py::bytes& b) { return g.wrap(g.game->deserialize(std::string(b))); }, py::arg("data"))
      .def("random_playouts", &PG::random_playouts, py::arg("n"), py::arg("seed") = 0)
      .def("__repr__", [](const PG& g) { return std::string("<nutcore game ") + G::kName + ", " + std::to_string(g.game->num_players()) + " players>"; });
}

}  // namespace nutcore::bindings
