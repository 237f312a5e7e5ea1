// One template binds every declared game: its game and state classes over the engine's models
// (engine/model.h), whose base classes (_AnyGame, _AnyState) the generic bindings take. Everything
// reachable from Python is checked: bad input raises ValueError and leaves the state unchanged;
// nothing aborts the interpreter.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <memory>
#include <sstream>
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

// A Python game object: the engine's model of a declared game (immutable, shared by its states).
template <typename D>
struct PyGame {
  std::shared_ptr<const engine::GameModel<D>> model;

  using State = engine::StateModel<D>;
  State wrap(const typename D::Game::StateType& s) const { return State(model, s); }

  // n random games played inside C++ (playouts above).
  PlayoutArrays random_playouts(const IndexArg& n_arg, const IndexArg& seed_arg_, const OrNoneArg<State>& from) const {
    const int64_t n = int_arg(n_arg, "random_playouts: n", 0, int64_t{1} << 40);
    const uint64_t seed = seed_arg(seed_arg_);
    auto start = model->rules().new_initial_state();
    if (!from.is_none()) {
      if (!py::isinstance<State>(from))
        throw std::invalid_argument(std::string("random_playouts: state must be a ") + D::Game::kName + " state");
      const State& s = from.template cast<const State&>();
      if (!s.game().same_as(*model))
        throw std::invalid_argument("random_playouts: the state belongs to another game (other parameters)");
      start = s.state();
    }
    return playouts(model->rules_ptr(), start, n, seed,
                    [](const typename D::Game& g, auto& state, Rng& rng) { return random_playout(g, state, rng); });
  }
};

// "AufDieNuesse" for auf_die_nuesse: the prefix of a game's Python class names.
inline std::string class_prefix(const std::string& name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

// Binds a declared game and its state; returns the state class, for the game's own attributes.
template <typename D>
py::class_<engine::StateModel<D>, engine::AnyState> bind_game(py::module_& m) {
  using G = typename D::Game;
  using S = engine::StateModel<D>;
  using PG = PyGame<D>;
  const engine::GameInfo& info = engine::game_info(G::kName);
  const std::string prefix = class_prefix(G::kName);
  // Both classes first, then their methods: each names the other in its signatures.
  py::class_<S, engine::AnyState> state_cls(m, (prefix + "State").c_str());
  py::class_<PG> game_cls(m, (prefix + "Game").c_str());
  state_cls.def("current_player", &S::current_player)
      .def("is_chance_node", &S::is_chance_node)
      .def("is_terminal", &S::is_terminal)
      .def("legal_actions", &S::legal_actions)
      .def("chance_outcomes", &S::chance_outcomes)
      // Every bad action, whatever its type or size, is a ValueError that lists the legal ones.
      .def(
          "apply_action",
          [](S& s, const IndexArg& action) {
            Action a = -1;
            try {
              a = static_cast<Action>(int_arg(action, "action", 0, G::kNumDistinctActions - 1));
            } catch (const std::invalid_argument&) {
              a = -1;  // not an action id at all: reported with the legal ones
            }
            if (a < 0 || !s.is_legal(a)) {
              const std::string shown =
                  py_repr(action) + (PyBool_Check(action.ptr()) ? " (a bool, not an action id)" : "");
              throw std::invalid_argument(s.illegal_action_message(shown, a));
            }
            s.apply_action(a);
          },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const S& s, const IndexArg& a) {
            return s.action_to_string(static_cast<Action>(int_arg(a, "action", 0, G::kNumDistinctActions - 1)));
          },
          py::arg("action"))
      .def("string_to_action", &S::string_to_action, py::arg("text"))
      .def("returns", &S::returns)
      .def("scores", &S::scores)
      .def("history", [](const S& s) { return s.history(); })
      // For the tests of random_playout's contract: (the uniform action playouts draw, the one
      // drawn from the listed legal actions) from generators seeded alike.
      .def(
          "_random_action_pair",
          [](const S& s, const IndexArg& seed_obj) {
            if (s.is_terminal() || s.is_chance_node())
              throw py::value_error("_random_action_pair needs a decision node");
            const uint64_t seed = seed_arg(seed_obj);
            Rng listed(seed), drawn(seed);
            const Action by_list = random_action_by_listing(s.rules(), s.state(), listed);
            const Action by_game = random_decision(s.rules(), s.state(), drawn);  // what playouts draw
            return py::make_tuple(by_game, by_list, drawn.next() == listed.next());
          },
          py::arg("seed"))
      // For the test of sample_chance's contract: the outcome it draws from a generator seeded so
      // (chance_outcomes gives the probabilities it must follow).
      .def(
          "_sample_chance",
          [](const S& s, const IndexArg& seed_obj) {
            if (!s.is_chance_node()) throw py::value_error("_sample_chance needs a chance node");
            Rng rng(seed_arg(seed_obj));
            return s.rules().sample_chance(s.state(), rng);
          },
          py::arg("seed"))
      .def("clone", [](const S& s) { return s; })
      .def("__copy__", [](const S& s) { return s; })
      .def(
          "__deepcopy__", [](const S& s, py::dict) { return s; }, py::arg("memo"))
      .def("serialize", [](const S& s) { return py::bytes(s.serialize()); })
      .def(
          "get_game", [](const S& s) { return PG{s.model()}; }, "The game this state belongs to.")
      // Pickles as (game, compact encoding, history); unpickling goes through the validated loader.
      .def("__reduce__",
           [](const S& s) {
             return py::make_tuple(py::module_::import("nutcore.games").attr("_state_from_pickle"),
                                   py::make_tuple(PG{s.model()}, py::bytes(s.serialize()), s.history()));
           })
      // For unpickling only: a history is a list of action ids, checked one by one.
      .def(
          "_set_history",
          [](S& s, const py::typing::List<IndexArg>& actions) {
            std::vector<Action> checked;
            for (const auto& a : actions)
              checked.push_back(static_cast<Action>(int_arg(a, "history action", 0, G::kNumDistinctActions - 1)));
            s.set_history(std::move(checked));
          },
          py::arg("actions"))
      .def("to_json", [](const S& s) { return json_object_to_py(s.to_json()); })
      .def("__str__", &S::to_string)
      .def("__repr__",
           [](const S& s) {
             return std::string("<") + G::kName + " state, current player " + std::to_string(s.current_player()) + ">";
           })
      // Anything but a state of the same game type: NotImplemented, so that Python answers False.
      .def(
          "__eq__",
          [](const S& a, const py::object& other) -> py::object {
            if (!py::isinstance<S>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a.equals(other.cast<const S&>()));
          },
          py::arg("other"), py::is_operator());
  // Information sets (docs/information.md): what a seat knows, never more.
  auto seat = [](const S& s, const IndexArg& player) {
    return static_cast<int>(int_arg(player, "player", 0, s.game().num_players() - 1));
  };
  // Memory is perfect: what a seat observes and its information state are one text.
  const auto information_text = [seat](const S& s, const IndexArg& player) {
    return s.information_string(seat(s, player));
  };
  state_cls
      .def("information_state_string", information_text, py::arg("player"),
           "What `player` knows of the position, as text (equal exactly for states it cannot tell apart).")
      .def("observation_string", information_text, py::arg("player"),
           "What `player` observes; with perfect memory the same as information_state_string.")
      .def(
          "observation_json",
          [seat](const S& s, const IndexArg& player) { return json_object_to_py(s.view_json(seat(s, player))); },
          py::arg("player"),
          "The position as `player` knows it: to_json's data with what it has not seen marked \"hidden\".")
      .def(
          "information_key", [seat](const S& s, const IndexArg& player) { return s.information_key(seat(s, player)); },
          py::arg("player"), "A 64-bit hash of information_state_string(player), as search uses it.")
      .def(
          "observation_tensor",
          [seat](const S& s, const IndexArg& player) {
            const int p = seat(s, player);
            py::array_t<float> out(s.game().observation_tensor_size());
            s.observation_tensor(p, out.mutable_data());
            return out;
          },
          py::arg("player"), "What `player` observes, as float32 (shape: game.observation_tensor_shape()).")
      .def(
          "resample_from_infostate",
          [seat](const S& s, const IndexArg& player, const IndexArg& seed) {
            const int p = seat(s, player);
            Rng rng(seed_arg(seed));
            return S(s.model(), s.rules().resample(s.state(), p, rng));
          },
          py::arg("player"), py::arg("seed") = 0,
          "A full state drawn from the posterior given what `player` knows (its history is empty).")
      .def(
          "observe_action",
          [seat](const S& s, const IndexArg& action, const IndexArg& player) {
            const int p = seat(s, player);
            const auto a = static_cast<Action>(int_arg(action, "action", 0, G::kNumDistinctActions - 1));
            Observed o = s.observe(a, p);
            return std::pair<std::optional<std::string>, bool>(
                o.text.empty() ? std::nullopt : std::optional<std::string>(std::move(o.text)), o.whole);
          },
          py::arg("action"), py::arg("player"),
          "What `player` sees of `action` (legal here, a chance outcome at a chance node) as it is "
          "played: (text, whole), text None if nothing, whole if it knows which action it was.")
      .def(
          "forget",
          [seat](const S& s, const IndexArg& player, const RealArg& recall_obj, const IndexArg& seed) {
            const int p = seat(s, player);
            const double recall = float_arg(recall_obj, "forget: recall", 0.0, 1.0);
            auto remembered = s.forget(p, recall, seed_arg(seed));
            return S(static_cast<const S&>(*remembered));
          },
          py::arg("player"), py::arg("recall"), py::arg("seed") = 0,
          "The state as `player` might remember it: each fact it had to memorise kept with probability "
          "`recall` (bots with imperfect memory; not a rule). A belief, not a position of this game.");
  state_cls.attr("hidden_information") = G::kHiddenInformation;
  // States are mutable: unhashable, as lists are.
  state_cls.attr("__hash__") = py::none();
  state_cls.attr("game_name") = G::kName;
  // What the generic layers ask of a game, from its declaration.
  py::list algorithms;
  for (int i = 0; i < kNumAlgorithms; ++i)
    if (info.algorithms.has(static_cast<Algorithm>(i))) algorithms.append(kAlgorithmNames[i]);
  state_cls.attr("algorithms") = py::tuple(algorithms);
  state_cls.attr("whole_game_solver") = info.whole_game_solver;

  game_cls
      .def(py::init([info](const JsonDict& params) {
             return PG{std::static_pointer_cast<const engine::GameModel<D>>(
                 engine::GameModel<D>::load(json_from_py(params), info))};
           }),
           py::arg("params"))
      .def_property_readonly_static("name", [](py::object) { return G::kName; })
      .def_property_readonly_static("title", [](py::object) { return D::kTitle; })
      .def_property_readonly_static("hidden_information", [](py::object) { return G::kHiddenInformation; })
      .def("num_players", [](const PG& g) { return g.model->num_players(); })
      .def("num_distinct_actions", [](const PG&) { return G::kNumDistinctActions; })
      // Chance outcomes are numbered in the same space as actions (docs/rules/<game>.md).
      .def(
          "max_chance_outcomes", [](const PG&) { return G::kNumDistinctActions; },
          "A bound on chance outcome ids (they share the action ids' range).")
      .def(
          "max_game_length", [](const PG& g) { return g.model->max_game_length(); },
          "An upper bound on the actions in one game, chance outcomes included.")
      .def("observation_tensor_shape", [](const PG& g) { return std::vector<int>{g.model->observation_tensor_size()}; })
      .def_property_readonly("params", [](const PG& g) { return json_object_to_py(g.model->params_json()); })
      .def("new_initial_state", [](const PG& g) { return g.wrap(g.model->rules().new_initial_state()); })
      .def(
          "state_from_json",
          [](const PG& g, const py::object& d) { return g.wrap(g.model->rules().from_json(json_from_py(d))); },
          py::arg("data"))
      .def(
          "deserialize_state",
          [](const PG& g, const BytesArg& b) {
            return g.wrap(g.model->rules().deserialize(bytes_arg(b, "deserialize_state: data")));
          },
          py::arg("data"))
      .def(
          "_vector_env",
          [](const PG& g, const IndexArg& n, const IndexArg& seed, const IndexArg& threads, bool external,
             const IndexOrNoneArg& seat, std::optional<std::string> opponents) {
            engine::VectorOptions o;
            o.num_envs = int_arg(n, "num_envs", 1, engine::kMaxVectorEnvs);
            o.seed = seed_arg(seed);
            o.threads = static_cast<int>(int_arg(threads, "threads", 1, 256));
            o.external_chance = external;
            o.seat = seat.is_none() ? -1 : static_cast<int>(int_arg(seat, "seat", 0, G::kMaxNumPlayers - 1));
            o.opponents = std::move(opponents);
            return PyVectorEnv{g.model->new_vector_env(o)};
          },
          py::arg("num_envs"), py::arg("seed"), py::arg("threads"), py::arg("external_chance"),
          py::arg("seat") = py::none(), py::arg("opponents") = py::none())
      .def("random_playouts", &PG::random_playouts, py::arg("n"), py::arg("seed") = 0, py::arg("state") = py::none(),
           "n uniformly random games to the end, from the initial state or from `state`: (returns, lengths).")
      .def("__repr__",
           [](const PG& g) {
             return std::string("<nutcore game ") + G::kName + ", " + std::to_string(g.model->num_players()) +
                    " players>";
           })
      // Games are immutable values: equal when their parameters are, and hashable.
      .def(
          "__eq__",
          [](const PG& a, const py::object& other) -> py::object {
            if (!py::isinstance<PG>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a.model->same_as(*other.cast<const PG&>().model));
          },
          py::arg("other"), py::is_operator())
      .def("__hash__", [](const PG& g) { return py::hash(py::str(g.model->params_json().dump())); })
      // Pickles as its name and parameters, through load_game (which validates them).
      .def("__reduce__",
           [](const PG& g) {
             return py::make_tuple(py::module_::import("nutcore.games").attr("_game_from_pickle"),
                                   py::make_tuple(G::kName, json_to_py(g.model->params_json())));
           })
      .def("__copy__", [](const PG& g) { return g; })
      .def(
          "__deepcopy__", [](const PG& g, py::dict) { return g; }, py::arg("memo"));
  return state_cls;
}

}  // namespace nutcore::bindings
