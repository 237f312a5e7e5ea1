#include "bindings/game_binding.h"
#include "bindings/search_binding.h"
#include "games/purzelbaum/heuristic.h"
#include "games/purzelbaum/purzelbaum.h"
#include "search/purzelbaum_winter_solver.h"

namespace nutcore::bindings {

void bind_purzelbaum(py::module_& m) {
  static_assert(GameConcept<purzel::Game>);
  bind_game<purzel::Game>(m, "PurzelbaumGame", "PurzelbaumState");
  bind_search<purzel::Game>(m);
  m.def("purzelbaum_solve_winter", [](const PyState<purzel::Game>& state) {
    purzel::WinterSolution r;
    {
      const auto root = state.state;  // a copy: Python may touch `state` while the GIL is released
      py::gil_scoped_release release;
      r = purzel::WinterSolver(state.game->num_players()).solve(*state.game, root);
    }
    std::vector<ActionStats> stats;
    for (const auto& [a, v] : r.action_values) stats.push_back({a, 1, static_cast<double>(v)});
    py::dict out = stats_to_py(r.best_action, stats);
    out["value"] = r.value;
    out["future"] = r.future;
    out["outcome"] = r.outcome;
    out["positions"] = r.positions;
    out["elapsed"] = r.elapsed;
    return out;
  }, py::arg("state"));
}

}  // namespace nutcore::bindings
