// Purzelbaum as the engine knows it (engine/declaration.h says what each entry means).
#pragma once

#include "engine/declaration.h"
#include "games/purzelbaum/heuristic.h"
#include "games/purzelbaum/purzelbaum.h"
#include "games/purzelbaum/winter_solver.h"

namespace nutcore::declare {

struct purzelbaum {
  using Game = purzel::Game;
  static constexpr const char* kTitle = "Purzelbaum";
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kMcts, Algorithm::kExpectimax, Algorithm::kSolver};
  static constexpr bool kWholeGameSolver = true;  // any winter position, to the end of the game
  // (A bias towards the greedy policy loses strength here: 0.67 instead of 0.76 at 1,000.)
  static constexpr const char* kSearchDefaults = "{}";
  // Luck caps what search adds (MCTS wins about 75% against greedy at any budget), while slips
  // and memory decide a lot: most levels are greedy players, less noisy and forgetful each step,
  // the steps read off a first ladder (rating against noise is steep near 0 and flat above 0.4).
  static constexpr std::array<const char*, kNumLevels> kLevels = {"greedy:noise=0.6,memory=0.3",
                                                                  "greedy:noise=0.34,memory=0.56",
                                                                  "greedy:noise=0.26,memory=0.64",
                                                                  "greedy:noise=0.2,memory=0.7",
                                                                  "greedy:noise=0.14,memory=0.78",
                                                                  "greedy:noise=0.1,memory=0.83",
                                                                  "greedy:noise=0.065,memory=0.88",
                                                                  "greedy:noise=0.03,memory=0.94",
                                                                  "auto:iterations=30",
                                                                  "auto:iterations=1000",
                                                                  "auto:iterations=1000,evaluator=learned+playout"};

  // Perfect memory makes the winter a game of perfect information: "auto" solves it exactly.
  static Algorithm auto_algorithm(const Game& g, const purzel::State& s) {
    return solver_applies(g, s) ? Algorithm::kSolver : Algorithm::kMcts;
  }
  static bool solver_applies(const Game&, const purzel::State& s) { return s.phase == purzel::Phase::kDig; }
  static SolverAnswer solve(const Game& game, const purzel::State& s, const StopFlag* stop) {
    const purzel::WinterSolution r = purzel::WinterSolver(game.num_players(), stop).solve(game, s);
    SolverAnswer a;
    a.best_action = r.best_action;
    for (const auto& [action, v] : r.action_values) a.actions.push_back({action, 1, static_cast<double>(v)});
    a.value = r.value;
    a.nodes = r.positions;
    a.elapsed = r.elapsed;
    a.extra.set("positions", Json::integer(r.positions));
    Json future = Json::array();
    for (long f : r.future) future.push(Json::integer(f));
    a.extra.set("future", future);
    a.extra.set("evaluation", Json::string("64 * points + nuts, final, under best play"));
    if (r.value.size() == 2) {
      const int mover = s.current;
      a.extra.set("outcome", Json::string(r.outcome > 0 ? "win" : r.outcome < 0 ? "loss" : "draw"));
      // Values are 64 * points + nuts with nuts < 64: whole division gives the points.
      a.extra.set("margin_points",
                  Json::integer(static_cast<long>(r.value[mover]) / 64 - static_cast<long>(r.value[1 - mover]) / 64));
    }
    return a;
  }
  static purzel::Params fuzz_params(int players, int turn_cap, int) {
    purzel::Params p;
    p.players = players;
    if (turn_cap) p.turn_cap = turn_cap;
    return p;
  }
};

}  // namespace nutcore::declare
