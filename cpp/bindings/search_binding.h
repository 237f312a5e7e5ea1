// A game's policies for Python, where tests and benchmarks read them directly: its heuristic
// evaluation, its greedy playouts and its best-first move order. The searches themselves are
// generic (engine_binding.cc's best_move).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "bindings/game_binding.h"

namespace nutcore::bindings {

template <typename D>
void bind_policies(py::module_& m) {
  using G = typename D::Game;
  using S = engine::StateModel<D>;
  if constexpr (HasEvaluation<G>) {
    m.def(
        "evaluate",
        [](const S& state) {
          double v[G::kMaxNumPlayers];
          evaluate_all(state.rules(), state.state(), v);
          return std::vector<double>(v, v + state.game().num_players());
        },
        py::arg("state"), "The game's heuristic evaluation: estimated final points per player.");
  }
  if constexpr (HasRolloutPolicy<G>) {
    // The playout policy's move (where a game plays its greedy bot apart, greedy_action differs).
    m.def(
        "rollout_action",
        [](const S& state) {
          if (state.is_terminal() || state.is_chance_node())
            throw std::invalid_argument("rollout_action needs a decision node");
          Rng rng(0);
          return rollout_action(state.rules(), state.state(), rng);
        },
        py::arg("state"), "The move of the game's playout policy (its greedy policy in the searches).");
    // Bare playouts of the kind heuristic_rollouts plays (bench/iteration_cost.py times a search
    // against playouts of its own kind).
    m.def(
        "greedy_playouts",
        [](const S& state, const IndexArg& n, const IndexArg& seed) {
          const int64_t count = int_arg(n, "greedy_playouts: n", 0, int64_t{1} << 40);
          return playouts(state.model()->rules_ptr(), state.state(), count, seed_arg(seed),
                          [](const G& g, auto& s, Rng& rng) { return play_out(g, s, rng, true); });
        },
        py::arg("state"), py::arg("n"), py::arg("seed") = 0,
        "n games from `state` to the end by the game's greedy policy (chance by its odds): (returns, lengths).");
  }
  if constexpr (HasActionOrder<G>) {
    m.def(
        "ordered_actions",
        [](const S& state) {
          if (state.is_terminal() || state.is_chance_node())
            throw std::invalid_argument("ordered_actions needs a decision node");
          typename G::Actions legal;
          state.rules().legal_actions(state.state(), legal);
          order_actions(state.rules(), state.state(), legal);
          return std::vector<Action>(legal.begin(), legal.end());
        },
        py::arg("state"), "The legal actions best first, as MCTS expands and widens them.");
  }
}

// What every game's python.cc does first: its classes and its policies.
template <typename D>
py::class_<engine::StateModel<D>, engine::AnyState> bind_declared_game(py::module_& m) {
  auto state_cls = bind_game<D>(m);
  bind_policies<D>(m);
  return state_cls;
}

}  // namespace nutcore::bindings
