// Search entry points for one game type; the GIL is released while searching.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/game_binding.h"
#include "search/expectimax.h"
#include "search/mcts.h"

namespace nutcore::bindings {

inline py::dict stats_to_py(Action best, const std::vector<ActionStats>& stats) {
  py::list actions;
  for (const auto& s : stats) {
    py::dict d;
    d["action"] = s.action;
    d["visits"] = s.visits;
    d["mean_value"] = s.mean_value;
    actions.append(d);
  }
  py::dict out;
  out["action"] = best;
  out["actions"] = actions;
  return out;
}

inline py::dict mcts_result_to_py(const MctsResult& r) {
  py::dict out = stats_to_py(r.best_action, r.actions);
  out["root_value"] = r.root_value;
  out["iterations"] = r.iterations;
  out["nodes"] = r.nodes;
  out["bytes_per_node"] = r.bytes_per_node;
  out["tree_bytes"] = r.tree_bytes;
  out["elapsed"] = r.elapsed;
  return out;
}

template <GameConcept G>
void bind_search(py::module_& m) {
  if constexpr (HasEvaluation<G>) {
    m.def("evaluate", [](const PyState<G>& state) {
      double v[G::kMaxNumPlayers];
      evaluate_all(*state.game, state.state, v);
      return std::vector<double>(v, v + state.game->num_players());
    }, py::arg("state"), "The game's heuristic evaluation: estimated final points per player.");
    m.def("expectimax_search", [](const PyState<G>& state, int depth, double bound, bool pruning, bool star2) {
      ExpectimaxOptions o;
      o.depth = depth;
      o.bound = bound;
      o.pruning = pruning;
      o.star2 = star2;
      ExpectimaxResult r;
      {
        const auto root = state.state;  // a copy: Python may touch `state` while the GIL is released
        py::gil_scoped_release release;
        r = Expectimax<G>(*state.game, o).search(root);
      }
      py::dict out = stats_to_py(r.best_action, r.actions);
      out["root_value"] = r.root_value;
      out["nodes"] = r.nodes;
      out["elapsed"] = r.elapsed;
      return out;
    }, py::arg("state"), py::arg("depth"), py::arg("bound"), py::arg("pruning"), py::arg("star2"));
  }
  if constexpr (HasRolloutPolicy<G>) {
    m.def("greedy_action", [](const PyState<G>& state) {
      if (state.game->is_terminal(state.state) || state.game->is_chance(state.state))
        throw std::invalid_argument("greedy_action needs a decision node");
      Rng rng(0);
      return rollout_action(*state.game, state.state, rng);
    }, py::arg("state"));
  }
  m.def("mcts_search", [](const PyState<G>& state, long iterations, double time_limit, double exploration, int64_t seed,
                          int threads, bool heuristic_rollouts, long max_nodes) {
    MctsOptions o;
    o.iterations = iterations;
    o.time_limit = time_limit;
    o.exploration = exploration;
    o.seed = static_cast<uint64_t>(seed);
    o.threads = threads;
    o.heuristic_rollouts = heuristic_rollouts;
    o.max_nodes = max_nodes;
    MctsResult r;
    {
      const auto root = state.state;  // a copy: Python may touch `state` while the GIL is released
      py::gil_scoped_release release;
      r = mcts_search(*state.game, root, o);
    }
    return mcts_result_to_py(r);
  }, py::arg("state"), py::arg("iterations"), py::arg("time_limit"), py::arg("exploration"), py::arg("seed"),
     py::arg("threads"), py::arg("heuristic_rollouts"), py::arg("max_nodes"));
}

}  // namespace nutcore::bindings
