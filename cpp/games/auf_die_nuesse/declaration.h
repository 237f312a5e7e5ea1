// Auf die Nüsse! as the engine knows it (engine/declaration.h says what each entry means).
#pragma once

#include <limits>

#include "engine/declaration.h"
#include "games/auf_die_nuesse/auf_die_nuesse.h"
#include "games/auf_die_nuesse/heuristic.h"
#include "games/auf_die_nuesse/turn_solver.h"

namespace nutcore::declare {

struct auf_die_nuesse {
  using Game = adn::Game;
  static constexpr const char* kTitle = "Auf die Nüsse!";
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kMcts, Algorithm::kExpectimax, Algorithm::kSolver};
  static constexpr bool kWholeGameSolver = false;  // the solver optimises one turn over a heuristic
  // A progressive bias towards the greedy policy: at 100 iterations 0.84 against greedy instead
  // of 0.42 (bench/RESULTS.md, "A bias towards the greedy policy, and per-game defaults").
  static constexpr const char* kSearchDefaults = R"({"mcts": {"policy_bias": 1.0}})";
  // Search stops gaining against itself at about 300 iterations (1,000 still gains a little
  // against greedy); slips cost about 100 points per 0.15 of noise (docs/levels.md).
  static constexpr std::array<const char*, kNumLevels> kLevels = {"greedy:noise=0.6",
                                                                  "greedy:noise=0.45",
                                                                  "greedy:noise=0.3",
                                                                  "greedy:noise=0.15",
                                                                  "greedy",
                                                                  "auto:iterations=20",
                                                                  "auto:iterations=50",
                                                                  "auto:iterations=120",
                                                                  "auto:iterations=300",
                                                                  "auto:iterations=1000",
                                                                  "auto:iterations=1000,evaluator=learned+playout"};

  // MCTS plays better than the turn solver's heuristic optimum, so "auto" always takes it.
  static Algorithm auto_algorithm(const Game&, const adn::State&) { return Algorithm::kMcts; }
  // At a roll / stop or choose-space decision the turn solver decides.
  static bool solver_applies(const Game&, const adn::State& s) {
    return s.phase == adn::Phase::kRollOrStop || s.phase == adn::Phase::kChooseSpace;
  }
  // At most 2^11 start tracks: milliseconds, so it needs no stop flag.
  static SolverAnswer solve(const Game& game, const adn::State& s, const StopFlag*) {
    const adn::TurnSolverResult r = adn::solve_turn(game, s);
    SolverAnswer a;
    a.best_action = r.best_action;
    a.actions = r.actions;
    a.value.assign(game.num_players(), std::numeric_limits<double>::quiet_NaN());
    a.value[s.active] = r.value;
    a.nodes = r.tracks;
    a.elapsed = r.elapsed;
    a.extra.set("evaluation", Json::string("heuristic margin of the player to move"));
    return a;
  }
  static adn::Params fuzz_params(int players, int turn_cap, int) {
    adn::Params p;
    p.players = players;
    if (turn_cap) p.turn_cap = turn_cap;
    return p;
  }
};

}  // namespace nutcore::declare
