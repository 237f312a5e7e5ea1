// Search entry points for one game type; the GIL is released while searching.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/game_binding.h"
#include "search/expectimax.h"
#include "search/ismcts.h"
#include "search/mcts.h"

namespace nutcore::bindings {

inline py::dict stats_to_py(Action best, const std::vector<ActionStats>& stats) {
  py::dict out;
  out["action"] = best;
  out["actions"] = action_stats_to_py(stats);
  return out;
}

// What every game's exact_solve returns: the move, per-move values for the mover, the value per
// seat (NaN where the solver does not know it), positions or nodes, seconds, game-specific extras.
inline py::dict solver_result_to_py(Action best, const std::vector<ActionStats>& stats, const std::vector<double>& value,
                                    long nodes, double elapsed, const py::dict& extra) {
  py::dict out = stats_to_py(best, stats);
  out["value"] = value;
  out["nodes"] = nodes;
  out["elapsed"] = elapsed;
  out["extra"] = extra;
  return out;
}

inline py::dict mcts_result_to_py(const MctsResult& r) {
  py::dict out = stats_to_py(r.best_action, r.actions);
  out["root_value"] = r.root_value;
  out["iterations"] = r.iterations;
  out["nodes"] = r.nodes;
  out["bytes_per_node"] = r.bytes_per_node;
  out["tree_bytes"] = r.tree_bytes;
  out["reserved_bytes"] = r.reserved_bytes;
  out["elapsed"] = r.elapsed;
  out["stopped"] = r.stopped;
  return out;
}

// A token's progress record, emptied for a new search (none without a token).
inline SearchProgress* progress_of(StopToken* token) {
  if (!token) return nullptr;
  token->progress.clear();
  return &token->progress;
}

// The arguments every sampling search takes, range-checked (ValueError from Python).
inline void read_budget(MctsOptions& o, const py::handle& iterations, double time_limit, double exploration,
                        const py::handle& seed, const py::handle& threads, bool heuristic_rollouts,
                        const py::handle& max_nodes) {
  o.iterations = static_cast<long>(int_arg(iterations, "iterations", 0, int64_t{1} << 50));
  o.time_limit = time_limit;
  o.exploration = exploration;
  o.seed = seed_arg(seed);
  o.threads = static_cast<int>(int_arg(threads, "threads", 1, 256));
  o.heuristic_rollouts = heuristic_rollouts;
  o.max_nodes = static_cast<long>(int_arg(max_nodes, "max_nodes", 1000, 2'000'000'000));
}

template <GameConcept G>
void bind_information_search(py::module_& m) {
  // ISMCTS and PIMC: the same budgets, seeds and threads as MCTS.
  for (const char* name : {"ismcts_search", "pimc_search"}) {
    const bool pimc = name[0] == 'p';
    m.def(name, [pimc](const PyState<G>& state, const py::handle& iterations, double time_limit, double exploration,
                       const py::handle& seed, const py::handle& threads, bool heuristic_rollouts,
                       const py::handle& max_nodes, const py::handle& determinizations, double policy_bias,
                       double margin, double margin_scale, StopToken* token) {
      IsmctsOptions o;
      read_budget(o, iterations, time_limit, exploration, seed, threads, heuristic_rollouts, max_nodes);
      o.margin = margin;
      o.margin_scale = margin_scale;
      o.determinizations = static_cast<int>(int_arg(determinizations, "determinizations", 1, 100000));
      if (!(policy_bias >= 0) || !std::isfinite(policy_bias)) throw std::invalid_argument("policy_bias must be >= 0");
      o.policy_bias = policy_bias;
      o.progress = progress_of(token);
      // The search works on a copy: Python may touch `state` while the GIL is released.
      const MctsResult r = run_interruptible(
          [game = state.game, root = state.state, o, pimc](const StopFlag* stop) mutable {
            o.stop = stop;
            return pimc ? pimc_search(*game, root, o) : ismcts_search(*game, root, o);
          },
          token);
      return mcts_result_to_py(r);
    }, py::arg("state"), py::arg("iterations"), py::arg("time_limit"), py::arg("exploration"), py::arg("seed"),
       py::arg("threads"), py::arg("heuristic_rollouts"), py::arg("max_nodes"), py::arg("determinizations"),
       py::arg("policy_bias"), py::arg("margin") = 0.0, py::arg("margin_scale") = 10.0, py::arg("stop") = nullptr);
  }
}

template <GameConcept G>
void bind_full_information_search(py::module_& m) {
  if constexpr (HasEvaluation<G>) {
    m.def("expectimax_search", [](const PyState<G>& state, const py::handle& depth, double bound, bool pruning,
                                  bool star2, const StopToken* token) {
      ExpectimaxOptions o;
      o.depth = static_cast<int>(int_arg(depth, "depth", 1, 64));
      o.bound = bound;
      o.pruning = pruning;
      o.star2 = star2;
      // The search works on a copy: Python may touch `state` while the GIL is released.
      const ExpectimaxResult r = run_interruptible(
          [game = state.game, root = state.state, o](const StopFlag* stop) mutable {
            o.stop = stop;
            return Expectimax<G>(*game, o).search(root);
          },
          token);
      py::dict out = stats_to_py(r.best_action, r.actions);
      out["root_value"] = r.root_value;
      out["nodes"] = r.nodes;
      out["elapsed"] = r.elapsed;
      return out;
    }, py::arg("state"), py::arg("depth"), py::arg("bound"), py::arg("pruning"), py::arg("star2"),
       py::arg("stop") = nullptr);
  }
  m.def("mcts_search", [](const PyState<G>& state, const py::handle& iterations, double time_limit, double exploration,
                          const py::handle& seed, const py::handle& threads, bool heuristic_rollouts,
                          const py::handle& max_nodes, double widening, double margin, double margin_scale,
                          StopToken* token) {
    MctsOptions o;
    read_budget(o, iterations, time_limit, exploration, seed, threads, heuristic_rollouts, max_nodes);
    o.widening = widening;
    o.margin = margin;
    o.margin_scale = margin_scale;
    o.progress = progress_of(token);
    // The search works on a copy: Python may touch `state` while the GIL is released.
    const MctsResult r = run_interruptible(
        [game = state.game, root = state.state, o](const StopFlag* stop) mutable {
          o.stop = stop;
          return mcts_search(*game, root, o);
        },
        token);
    return mcts_result_to_py(r);
  }, py::arg("state"), py::arg("iterations"), py::arg("time_limit"), py::arg("exploration"), py::arg("seed"),
     py::arg("threads"), py::arg("heuristic_rollouts"), py::arg("max_nodes"), py::arg("widening") = 0.0,
     py::arg("margin") = 0.0, py::arg("margin_scale") = 10.0, py::arg("stop") = nullptr);
}

// Searches that read the whole state (MCTS, expectimax) are bound only for games of perfect
// information: on a hidden-information game they would peek.
template <GameConcept G>
void bind_search(py::module_& m) {
  if constexpr (HasEvaluation<G>) {
    m.def("evaluate", [](const PyState<G>& state) {
      double v[G::kMaxNumPlayers];
      evaluate_all(*state.game, state.state, v);
      return std::vector<double>(v, v + state.game->num_players());
    }, py::arg("state"), "The game's heuristic evaluation: estimated final points per player.");
  }
  if constexpr (HasRolloutPolicy<G>) {
    m.def("greedy_action", [](const PyState<G>& state) {
      if (state.game->is_terminal(state.state) || state.game->is_chance(state.state))
        throw std::invalid_argument("greedy_action needs a decision node");
      Rng rng(0);
      return rollout_action(*state.game, state.state, rng);
    }, py::arg("state"));
  }
  if constexpr (HasActionOrder<G>) {
    m.def("ordered_actions", [](const PyState<G>& state) {
      if (state.game->is_terminal(state.state) || state.game->is_chance(state.state))
        throw std::invalid_argument("ordered_actions needs a decision node");
      typename G::Actions legal;
      state.game->legal_actions(state.state, legal);
      order_actions(*state.game, state.state, legal);
      return std::vector<Action>(legal.begin(), legal.end());
    }, py::arg("state"), "The legal actions best first, as MCTS expands and widens them.");
  }
  if constexpr (G::kHiddenInformation) {
    bind_information_search<G>(m);
  } else {
    bind_full_information_search<G>(m);
  }
}

}  // namespace nutcore::bindings
