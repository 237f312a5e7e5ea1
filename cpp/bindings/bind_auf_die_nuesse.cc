#include "bindings/game_binding.h"
#include "bindings/search_binding.h"
#include "games/auf_die_nuesse/auf_die_nuesse.h"
#include "games/auf_die_nuesse/heuristic.h"
#include "search/adn_turn_solver.h"

namespace nutcore::bindings {

void bind_auf_die_nuesse(py::module_& m) {
  static_assert(GameConcept<adn::Game>);
  bind_game<adn::Game>(m, "AufDieNuesseGame", "AufDieNuesseState");
  bind_search<adn::Game>(m);
  m.def("adn_solve_turn", [](const PyState<adn::Game>& state) {
    // At most 2^11 start tracks: milliseconds, so no stop flag; Ctrl-C is still seen at once after.
    const adn::TurnSolverResult r = run_interruptible(
        [game = state.game, root = state.state](const StopFlag*) { return adn::solve_turn(*game, root); });
    py::dict out = stats_to_py(r.best_action, r.actions);
    out["value"] = r.value;
    out["tracks"] = r.tracks;
    out["elapsed"] = r.elapsed;
    return out;
  }, py::arg("state"));
  m.def("adn_heuristic_margin", [](const PyState<adn::Game>& state, const py::handle& player) {
    const int p = static_cast<int>(int_arg(player, "player", 0, state.game->num_players() - 1));
    return adn::heuristic_margin(*state.game, state.state, p);
  }, py::arg("state"), py::arg("player"));
}

}  // namespace nutcore::bindings
