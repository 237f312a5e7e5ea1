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
    adn::TurnSolverResult r;
    {
      const auto root = state.state;  // a copy: Python may touch `state` while the GIL is released
      py::gil_scoped_release release;
      r = adn::solve_turn(*state.game, root);
    }
    py::dict out = stats_to_py(r.best_action, r.actions);
    out["value"] = r.value;
    out["tracks"] = r.tracks;
    out["elapsed"] = r.elapsed;
    return out;
  }, py::arg("state"));
  m.def("adn_heuristic_margin", [](const PyState<adn::Game>& state, int player) {
    if (player < 0 || player >= state.game->num_players()) throw std::invalid_argument("player out of range");
    return adn::heuristic_margin(*state.game, state.state, player);
  }, py::arg("state"), py::arg("player"));
}

}  // namespace nutcore::bindings
