// Purzelbaum's declared hooks (declaration.h).
#include "games/purzelbaum/declaration.h"

#include "games/purzelbaum/winter_solver.h"

namespace nutcore::declare {

Algorithm purzelbaum::auto_algorithm(const Game& g, const nutcore::purzelbaum::State& s) {
  return solver_applies(g, s) ? Algorithm::kSolver : Algorithm::kMcts;
}

bool purzelbaum::solver_applies(const Game&, const nutcore::purzelbaum::State& s) {
  return s.phase == nutcore::purzelbaum::Phase::kDig;
}

SolverAnswer purzelbaum::solve(const Game& game, const nutcore::purzelbaum::State& s, const StopFlag* stop) {
  const nutcore::purzelbaum::WinterSolution r =
      nutcore::purzelbaum::WinterSolver(game.num_players(), stop).solve(game, s);
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

nutcore::purzelbaum::Params purzelbaum::fuzz_params(int players, int turn_cap, int) {
  nutcore::purzelbaum::Params p;
  p.players = players;
  if (turn_cap) p.turn_cap = turn_cap;
  return p;
}

}  // namespace nutcore::declare
