// A declared game's hooks for the generic Python classes (GameHooks, game_binding.h): its playout
// loops and policies, instantiated in the game's own binding unit, which CMake generates from the
// game list (generated/bind_<g>.cc calls bind_declared_game). A game writes no binding code.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/game_binding.h"

namespace nutcore::bindings {

// `state` as game D's own model: a ValueError naming `what` if it is another game's state.
template <typename D>
const engine::StateModel<D>& state_model(const engine::AnyState& state, const std::string& what) {
  const auto* model = dynamic_cast<const engine::StateModel<D>*>(&state);
  if (!model)
    throw std::invalid_argument(what + ": needs a state of " + D::Game::kName + ", not of " + state.game().info().name);
  return *model;
}

template <typename D>
GameHooks make_game_hooks() {
  using G = typename D::Game;
  using S = engine::StateModel<D>;
  GameHooks h;
  h.random_playouts = [](const engine::AnyGame& game, const engine::AnyState* from, int64_t n, uint64_t seed) {
    const auto& model = dynamic_cast<const engine::GameModel<D>&>(game);
    const auto start = from ? state_model<D>(*from, "random_playouts").state() : model.rules().new_initial_state();
    return playouts(model.rules_ptr(), start, n, seed,
                    [](const G& g, auto& state, Rng& rng) { return random_playout(g, state, rng); });
  };
  h.random_action_pair = [](const engine::AnyState& any, uint64_t seed) {
    const S& s = state_model<D>(any, "_random_action_pair");
    // (the uniform action playouts draw, the one drawn from the listed legal actions) from
    // generators seeded alike, and whether both used the generator alike.
    Rng listed(seed), drawn(seed);
    const Action by_list = random_action_by_listing(s.rules(), s.state(), listed);
    const Action by_game = random_decision(s.rules(), s.state(), drawn);  // what playouts draw
    return py::make_tuple(by_game, by_list, drawn.next() == listed.next());
  };
  h.sample_chance = [](const engine::AnyState& any, uint64_t seed) {
    const S& s = state_model<D>(any, "_sample_chance");
    Rng rng(seed);
    return s.rules().sample_chance(s.state(), rng);
  };
  if constexpr (HasEvaluation<G>) {
    h.evaluate = [](const engine::AnyState& any) {
      const S& s = state_model<D>(any, "evaluate");
      double v[G::kMaxNumPlayers];
      evaluate_all(s.rules(), s.state(), v);
      return std::vector<double>(v, v + s.game().num_players());
    };
  }
  if constexpr (HasRolloutPolicy<G>) {
    h.rollout_action = [](const engine::AnyState& any) {
      const S& s = state_model<D>(any, "rollout_action");
      Rng rng(0);
      return rollout_action(s.rules(), s.state(), rng);
    };
    h.greedy_playouts = [](const engine::AnyState& any, int64_t n, uint64_t seed) {
      const S& s = state_model<D>(any, "greedy_playouts");
      return playouts(s.model()->rules_ptr(), s.state(), n, seed,
                      [](const G& g, auto& state, Rng& rng) { return play_out(g, state, rng, true); });
    };
  }
  if constexpr (HasActionOrder<G>) {
    h.ordered_actions = [](const engine::AnyState& any) {
      const S& s = state_model<D>(any, "ordered_actions");
      typename G::Actions legal;
      s.rules().legal_actions(s.state(), legal);
      order_actions(s.rules(), s.state(), legal);
      return std::vector<Action>(legal.begin(), legal.end());
    };
  }
  return h;
}

// What each game's generated bind_<g> does: its hooks into the table.
template <typename D>
void bind_declared_game(py::module_&) {
  register_game_hooks(D::Game::kName, make_game_hooks<D>());
}

}  // namespace nutcore::bindings
