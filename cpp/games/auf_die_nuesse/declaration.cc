// Auf die Nüsse!'s declared hooks (declaration.h).
#include "games/auf_die_nuesse/declaration.h"

#include <limits>

#include "games/auf_die_nuesse/turn_solver.h"

namespace nutcore::declare {

bool auf_die_nuesse::solver_applies(const Game&, const nutcore::auf_die_nuesse::State& s) {
  return s.phase == nutcore::auf_die_nuesse::Phase::kRollOrStop ||
         s.phase == nutcore::auf_die_nuesse::Phase::kChooseSpace;
}

// At most 2^11 start tracks: milliseconds, so it needs no stop flag.
SolverAnswer auf_die_nuesse::solve(const Game& game, const nutcore::auf_die_nuesse::State& s, const StopFlag*) {
  const nutcore::auf_die_nuesse::TurnSolverResult r = nutcore::auf_die_nuesse::solve_turn(game, s);
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

nutcore::auf_die_nuesse::Params auf_die_nuesse::fuzz_params(int players, int turn_cap, int) {
  nutcore::auf_die_nuesse::Params p;
  p.players = players;
  if (turn_cap) p.turn_cap = turn_cap;
  return p;
}

}  // namespace nutcore::declare
