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
  m.def("purzelbaum_check_params", [](const py::dict& params) {
    purzel::Game::checked_params(purzel::Game::params_from_json(json_from_py(params)));
  }, py::arg("params"), "Every parameter check but the model tables' (cheap: run before computing them).");
  m.def("purzelbaum_solve_winter", [](const PyState<purzel::Game>& state, const StopToken* token) {
    // The solver works on a copy: Python may touch `state` while the GIL is released.
    const purzel::WinterSolution r = run_interruptible(
        [game = state.game, root = state.state](const StopFlag* stop) {
          return purzel::WinterSolver(game->num_players(), stop).solve(*game, root);
        },
        token);
    std::vector<ActionStats> stats;
    for (const auto& [a, v] : r.action_values) stats.push_back({a, 1, static_cast<double>(v)});
    py::dict out = stats_to_py(r.best_action, stats);
    out["value"] = r.value;
    out["future"] = r.future;
    out["outcome"] = r.outcome;
    out["positions"] = r.positions;
    out["elapsed"] = r.elapsed;
    return out;
  }, py::arg("state"), py::arg("stop") = nullptr);
}

}  // namespace nutcore::bindings
