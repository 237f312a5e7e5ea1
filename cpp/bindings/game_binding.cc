// nutcore.Game and nutcore.State: one pair of Python classes for every declared game, over the
// engine's type-erased models (engine::AnyGame, AnyState). A state's methods are one virtual call
// into its game's own template code (engine/model.h); what the engine interface lacks (playout
// loops, policies) each game's hooks provide (game_hooks.h). What a game is (its name, algorithms,
// solver) comes from its declaration, through engine::GameInfo.
#include "bindings/game_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings/boundary.h"
#include "bindings/engine_binding.h"
#include "engine/any.h"

namespace nutcore::bindings {

namespace {

std::map<std::string, GameHooks>& hooks_table() {
  static std::map<std::string, GameHooks> table;
  return table;
}

using engine::AnyState;
// A position as JSON data: typed as the object it must be, taken as any value so that anything
// else is the loader's ValueError.
NUTCORE_TYPE_NAME(JsonObjectName, "dict[str, typing.Any]");
using JsonObjectArg = Typed<JsonObjectName>;

// The declaration's algorithms, by name, in the order of kAlgorithmNames.
py::typing::Tuple<py::str, py::ellipsis> algorithm_names(const engine::GameInfo& info) {
  py::list names;
  for (int i = 0; i < kNumAlgorithms; ++i)
    if (info.algorithms.has(static_cast<Algorithm>(i))) names.append(kAlgorithmNames[i]);
  return py::typing::Tuple<py::str, py::ellipsis>(py::tuple(names));
}

Action action_arg(const AnyState& s, const py::handle& a, const std::string& what) {
  return static_cast<Action>(int_arg(a, what, 0, s.game().num_distinct_actions() - 1));
}

int seat_arg(const AnyState& s, const py::handle& player) {
  return static_cast<int>(int_arg(player, "player", 0, s.game().num_players() - 1));
}

// A policy the game has, or a ValueError naming what it lacks.
template <typename F>
const F& policy(const F& hook, const AnyState& s, const char* what) {
  if (!hook) throw std::invalid_argument(s.game().info().name + " has no " + what);
  return hook;
}

void need_decision_node(const AnyState& s, const std::string& what) {
  if (s.is_terminal() || s.is_chance_node()) throw std::invalid_argument(what + " needs a decision node");
}

}  // namespace

void register_game_hooks(const std::string& game, GameHooks hooks) { hooks_table()[game] = std::move(hooks); }

const GameHooks& game_hooks(const engine::AnyGame& game) {
  const auto found = hooks_table().find(game.info().name);
  if (found == hooks_table().end()) throw std::logic_error("no Python hooks for " + game.info().name);
  return found->second;
}

void declare_game_classes(py::module_& m) {
  py::class_<AnyState>(m, "State", "A position of a declared game, with its history (OpenSpiel's names).");
  py::class_<PyGame>(m, "Game", "A declared game with its parameters: immutable (nutcore.load_game).");
}

void bind_game_classes(py::module_& m) {
  auto state_cls = py::reinterpret_borrow<py::class_<AnyState>>(m.attr("State"));
  auto game_cls = py::reinterpret_borrow<py::class_<PyGame>>(m.attr("Game"));
  state_cls.def("current_player", &AnyState::current_player)
      .def("is_chance_node", &AnyState::is_chance_node)
      .def("is_terminal", &AnyState::is_terminal)
      .def("legal_actions", &AnyState::legal_actions)
      .def("chance_outcomes", &AnyState::chance_outcomes)
      // Every bad action, whatever its type or size, is a ValueError that lists the legal ones.
      .def(
          "apply_action",
          [](AnyState& s, const IndexArg& action) {
            Action a = -1;
            try {
              a = action_arg(s, action, "action");
            } catch (const std::invalid_argument&) {
              a = -1;  // not an action id at all: reported with the legal ones
            }
            if (a >= 0) {
              // apply_action checks legality itself (and changes nothing if it throws): one check.
              try {
                s.apply_action(a);
                return;
              } catch (const std::invalid_argument&) {
                if (s.is_legal(a)) throw;  // refused for another reason: its own message
              }
            }
            const std::string shown =
                py_repr(action) + (PyBool_Check(action.ptr()) ? " (a bool, not an action id)" : "");
            throw std::invalid_argument(s.illegal_action_message(shown, a));
          },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const AnyState& s, const IndexArg& a) { return s.action_to_string(action_arg(s, a, "action")); },
          py::arg("action"))
      .def("string_to_action", &AnyState::string_to_action, py::arg("text"))
      .def("returns", &AnyState::returns)
      .def("scores", &AnyState::scores)
      .def("history", [](const AnyState& s) { return s.history(); })
      .def(
          "_random_action_pair",
          [](const AnyState& s, const IndexArg& seed) {
            if (s.is_terminal() || s.is_chance_node())
              throw py::value_error("_random_action_pair needs a decision node");
            return py::typing::Tuple<int, int, bool>(game_hooks(s.game()).random_action_pair(s, seed_arg(seed)));
          },
          py::arg("seed"),
          "For the tests of random_playout's contract: (the action playouts draw, the one drawn from the listed "
          "legal actions, whether both used the generator alike), from generators seeded alike.")
      .def(
          "_sample_chance",
          [](const AnyState& s, const IndexArg& seed) {
            if (!s.is_chance_node()) throw py::value_error("_sample_chance needs a chance node");
            return game_hooks(s.game()).sample_chance(s, seed_arg(seed));
          },
          py::arg("seed"), "For the test of sample_chance's contract: the outcome it draws from a generator so seeded.")
      .def("clone", [](const AnyState& s) { return s.clone(); })
      .def("__copy__", [](const AnyState& s) { return s.clone(); })
      .def(
          "__deepcopy__", [](const AnyState& s, const py::dict&) { return s.clone(); }, py::arg("memo"))
      .def("serialize", [](const AnyState& s) { return py::bytes(s.serialize()); })
      .def(
          "get_game", [](const AnyState& s) { return PyGame{s.game_ptr()}; }, "The game this state belongs to.")
      // Pickles as (game, compact encoding, history); unpickling goes through the validated loader.
      .def("__reduce__",
           [](const AnyState& s) {
             return py::make_tuple(py::module_::import("nutcore.games").attr("_state_from_pickle"),
                                   py::make_tuple(PyGame{s.game_ptr()}, py::bytes(s.serialize()), s.history()));
           })
      // For unpickling only: a history is a list of action ids, checked one by one.
      .def(
          "_set_history",
          [](AnyState& s, const py::typing::List<IndexArg>& actions) {
            std::vector<Action> checked;
            for (const auto& a : actions) checked.push_back(action_arg(s, a, "history action"));
            s.set_history(std::move(checked));
          },
          py::arg("actions"))
      .def("to_json", [](const AnyState& s) { return json_object_to_py(s.to_json()); })
      .def("__str__", &AnyState::to_string)
      .def("__repr__",
           [](const AnyState& s) {
             return "<" + s.game().info().name + " state, current player " + std::to_string(s.current_player()) + ">";
           })
      // Anything but a state: NotImplemented, so that Python answers False. States of different
      // games are unequal.
      .def(
          "__eq__",
          [](const AnyState& a, const py::object& other) -> py::object {
            if (!py::isinstance<AnyState>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a.equals(other.cast<const AnyState&>()));
          },
          py::arg("other"), py::is_operator());
  // Information sets (docs/information.md): what a seat knows, never more. Memory is perfect:
  // what a seat observes and its information state are one text.
  const auto information_text = [](const AnyState& s, const IndexArg& player) {
    return s.information_string(seat_arg(s, player));
  };
  state_cls
      .def("information_state_string", information_text, py::arg("player"),
           "What `player` knows of the position, as text (equal exactly for states it cannot tell apart).")
      .def("observation_string", information_text, py::arg("player"),
           "What `player` observes; with perfect memory the same as information_state_string.")
      .def(
          "observation_json",
          [](const AnyState& s, const IndexArg& player) { return json_object_to_py(s.view_json(seat_arg(s, player))); },
          py::arg("player"),
          "The position as `player` knows it: to_json's data with what it has not seen marked \"hidden\".")
      .def(
          "information_key",
          [](const AnyState& s, const IndexArg& player) { return s.information_key(seat_arg(s, player)); },
          py::arg("player"), "A 64-bit hash of information_state_string(player), as search uses it.")
      .def(
          "observation_tensor",
          [](const AnyState& s, const IndexArg& player) {
            const int p = seat_arg(s, player);
            py::array_t<float> out(s.game().observation_tensor_size());
            s.observation_tensor(p, out.mutable_data());
            return out;
          },
          py::arg("player"), "What `player` observes, as float32 (shape: game.observation_tensor_shape()).")
      .def(
          "resample_from_infostate",
          [](const AnyState& s, const IndexArg& player, const IndexArg& seed) {
            return s.resample(seat_arg(s, player), seed_arg(seed));
          },
          py::arg("player"), py::arg("seed") = 0,
          "A full state drawn from the posterior given what `player` knows (its history is empty).")
      .def(
          "observe_action",
          [](const AnyState& s, const IndexArg& action, const IndexArg& player) {
            const int p = seat_arg(s, player);
            Observed o = s.observe(action_arg(s, action, "action"), p);
            return std::pair<std::optional<std::string>, bool>(
                o.text.empty() ? std::nullopt : std::optional<std::string>(std::move(o.text)), o.whole);
          },
          py::arg("action"), py::arg("player"),
          "What `player` sees of `action` (legal here, a chance outcome at a chance node) as it is "
          "played: (text, whole), text None if nothing, whole if it knows which action it was.")
      .def(
          "forget",
          [](const AnyState& s, const IndexArg& player, const RealArg& recall, const IndexArg& seed) {
            const int p = seat_arg(s, player);
            return s.forget(p, float_arg(recall, "forget: recall", 0.0, 1.0), seed_arg(seed));
          },
          py::arg("player"), py::arg("recall"), py::arg("seed") = 0,
          "The state as `player` might remember it: each fact it had to memorise kept with probability "
          "`recall` (bots with imperfect memory; not a rule). A belief, not a position of this game.");
  // What the generic layers ask of a game, from its declaration (on the game too).
  state_cls
      .def_property_readonly(
          "game_name", [](const AnyState& s) { return s.game().info().name; },
          "The game's name, as load_game takes it.")
      .def_property_readonly(
          "hidden_information", [](const AnyState& s) { return s.game().info().hidden_information; },
          "Whether a seat may not see everything (docs/information.md).")
      .def_property_readonly(
          "algorithms", [](const AnyState& s) { return algorithm_names(s.game().info()); },
          "The search algorithms the game offers (best_move's \"algorithm\"; \"auto\" besides).")
      .def_property_readonly(
          "whole_game_solver", [](const AnyState& s) { return s.game().info().whole_game_solver; },
          "Whether solve() applies to some positions of the game.");
  // States are mutable: unhashable, as lists are.
  state_cls.attr("__hash__") = py::none();

  game_cls
      .def(py::init([](const std::string& name, const JsonDict& params) {
             return PyGame{engine::load_game(name, json_from_py(params))};
           }),
           py::arg("name"), py::arg("params"),
           "The game `name` with its parameters, \"players\" included (nutcore.load_game checks them first).")
      .def_property_readonly(
          "name", [](const PyGame& g) { return g.model->info().name; }, "The game's name, as load_game takes it.")
      .def_property_readonly(
          "title", [](const PyGame& g) { return g.model->info().title; }, "The game's title, as its box prints it.")
      .def_property_readonly(
          "hidden_information", [](const PyGame& g) { return g.model->info().hidden_information; },
          "Whether a seat may not see everything (docs/information.md).")
      .def_property_readonly(
          "algorithms", [](const PyGame& g) { return algorithm_names(g.model->info()); },
          "The search algorithms the game offers (best_move's \"algorithm\"; \"auto\" besides).")
      .def_property_readonly(
          "whole_game_solver", [](const PyGame& g) { return g.model->info().whole_game_solver; },
          "Whether solve() applies to some positions of the game.")
      .def("num_players", [](const PyGame& g) { return g.model->num_players(); })
      .def("num_distinct_actions", [](const PyGame& g) { return g.model->num_distinct_actions(); })
      // Chance outcomes are numbered in the same space as actions (docs/rules/<game>.md).
      .def(
          "max_chance_outcomes", [](const PyGame& g) { return g.model->num_distinct_actions(); },
          "A bound on chance outcome ids (they share the action ids' range).")
      .def(
          "max_game_length", [](const PyGame& g) { return g.model->max_game_length(); },
          "An upper bound on the actions in one game, chance outcomes included.")
      .def("observation_tensor_shape",
           [](const PyGame& g) { return std::vector<int>{g.model->observation_tensor_size()}; })
      .def_property_readonly("params", [](const PyGame& g) { return json_object_to_py(g.model->params_json()); })
      .def("new_initial_state", [](const PyGame& g) { return g.model->new_initial_state(); })
      .def(
          "state_from_json",
          [](const PyGame& g, const JsonObjectArg& d) { return g.model->state_from_json(json_from_py(d)); },
          py::arg("data"))
      .def(
          "deserialize_state",
          [](const PyGame& g, const BytesArg& b) {
            return g.model->deserialize(bytes_arg(b, "deserialize_state: data"));
          },
          py::arg("data"))
      .def(
          "_vector_env",
          [](const PyGame& g, const IndexArg& n, const IndexArg& seed, const IndexArg& threads, bool external,
             const IndexOrNoneArg& seat, std::optional<std::string> opponents) {
            engine::VectorOptions o;
            o.num_envs = int_arg(n, "num_envs", 1, engine::kMaxVectorEnvs);
            o.seed = seed_arg(seed);
            o.threads = static_cast<int>(int_arg(threads, "threads", 1, 256));
            o.external_chance = external;
            o.seat = seat.is_none() ? -1 : static_cast<int>(int_arg(seat, "seat", 0, g.model->info().max_players - 1));
            o.opponents = std::move(opponents);
            return PyVectorEnv{g.model->new_vector_env(o)};
          },
          py::arg("num_envs"), py::arg("seed"), py::arg("threads"), py::arg("external_chance"),
          py::arg("seat") = py::none(), py::arg("opponents") = py::none())
      .def(
          "random_playouts",
          [](const PyGame& g, const IndexArg& n_arg, const IndexArg& seed, const OrNoneArg<AnyState>& from) {
            const int64_t n = int_arg(n_arg, "random_playouts: n", 0, int64_t{1} << 40);
            if (!from.is_none() && !py::isinstance<AnyState>(from))
              throw std::invalid_argument("random_playouts: state must be a nutcore.State, got " + py_repr(from));
            const AnyState* start = from.is_none() ? nullptr : &from.cast<const AnyState&>();
            if (start && !start->game().same_as(*g.model))
              throw std::invalid_argument("random_playouts: the state belongs to another game (other parameters)");
            return game_hooks(*g.model).random_playouts(*g.model, start, n, seed_arg(seed));
          },
          py::arg("n"), py::arg("seed") = 0, py::arg("state") = py::none(),
          "n uniformly random games to the end, from the initial state or from `state`: (returns, lengths).")
      .def("__repr__",
           [](const PyGame& g) {
             return "<nutcore game " + g.model->info().name + ", " + std::to_string(g.model->num_players()) +
                    " players>";
           })
      // Games are immutable values: equal when their parameters are, and hashable.
      .def(
          "__eq__",
          [](const PyGame& a, const py::object& other) -> py::object {
            if (!py::isinstance<PyGame>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a.model->same_as(*other.cast<const PyGame&>().model));
          },
          py::arg("other"), py::is_operator())
      .def("__hash__",
           [](const PyGame& g) { return py::hash(py::str(g.model->info().name + g.model->params_json().dump())); })
      // Pickles as its name and parameters, through load_game (which validates them).
      .def("__reduce__",
           [](const PyGame& g) {
             return py::make_tuple(py::module_::import("nutcore.games").attr("_game_from_pickle"),
                                   py::make_tuple(g.model->info().name, json_to_py(g.model->params_json())));
           })
      .def("__copy__", [](const PyGame& g) { return g; })
      .def(
          "__deepcopy__", [](const PyGame& g, const py::dict&) { return g; }, py::arg("memo"));

  // A game's policies, where tests and benchmarks read them directly (the searches themselves are
  // generic: engine_binding.cc's best_move). A game without the policy: ValueError.
  m.def(
      "evaluate", [](const AnyState& s) { return policy(game_hooks(s.game()).evaluate, s, "heuristic evaluation")(s); },
      py::arg("state"), "The game's heuristic evaluation: estimated final points per player.");
  m.def(
      "rollout_action",
      [](const AnyState& s) {
        const auto& hook = policy(game_hooks(s.game()).rollout_action, s, "playout policy");
        need_decision_node(s, "rollout_action");
        return hook(s);
      },
      py::arg("state"), "The move of the game's playout policy (its greedy policy in the searches).");
  // Bare playouts of the kind heuristic_rollouts plays (bench/iteration_cost.py times a search
  // against playouts of its own kind).
  m.def(
      "greedy_playouts",
      [](const AnyState& s, const IndexArg& n, const IndexArg& seed) {
        const auto& hook = policy(game_hooks(s.game()).greedy_playouts, s, "playout policy");
        return hook(s, int_arg(n, "greedy_playouts: n", 0, int64_t{1} << 40), seed_arg(seed));
      },
      py::arg("state"), py::arg("n"), py::arg("seed") = 0,
      "n games from `state` to the end by the game's greedy policy (chance by its odds): (returns, lengths).");
  m.def(
      "ordered_actions",
      [](const AnyState& s) {
        const auto& hook = policy(game_hooks(s.game()).ordered_actions, s, "action order");
        need_decision_node(s, "ordered_actions");
        return hook(s);
      },
      py::arg("state"), "The legal actions best first, as MCTS expands and widens them.");
}

}  // namespace nutcore::bindings
