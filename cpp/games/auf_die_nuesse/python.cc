// Auf die Nüsse! in nutcore._core: the common bindings, and what the generic layers ask of a game
// (its algorithms, what "auto" picks, its solver), answered here so that they name no game.
#include "bindings/game_binding.h"
#include "bindings/search_binding.h"
#include "games/auf_die_nuesse/auf_die_nuesse.h"
#include "games/auf_die_nuesse/heuristic.h"
#include "games/auf_die_nuesse/turn_solver.h"

namespace nutcore::bindings {

void bind_auf_die_nuesse(py::module_& m) {
  using S = PyState<adn::Game>;
  static_assert(GameConcept<adn::Game>);
  auto state_cls = bind_game<adn::Game>(m, "AufDieNuesseGame", "AufDieNuesseState");
  bind_search<adn::Game>(m);
  state_cls.attr("algorithms") = py::make_tuple("mcts", "expectimax", "solver");
  state_cls.attr("whole_game_solver") = false;  // the solver optimises one turn over a heuristic
  // MCTS plays better than the turn solver's heuristic optimum, so "auto" always takes it.
  m.def("auto_algorithm", [](const S&) { return "mcts"; }, py::arg("state"));
  m.def("solver_applies", [](const S& s) {
    return s.state.phase == adn::Phase::kRollOrStop || s.state.phase == adn::Phase::kChooseSpace;
  }, py::arg("state"), "True at a roll / stop or choose-space decision, where the turn solver decides.");
  m.def("exact_solve", [](const S& state, const StopToken*) {
    // At most 2^11 start tracks: milliseconds, so no stop flag; Ctrl-C is still seen at once after.
    const adn::TurnSolverResult r = run_interruptible(
        [game = state.game, root = state.state](const StopFlag*) { return adn::solve_turn(*game, root); });
    std::vector<double> value(state.game->num_players(), std::numeric_limits<double>::quiet_NaN());
    value[state.state.active] = r.value;
    py::dict extra;
    extra["evaluation"] = "heuristic margin of the player to move";
    return solver_result_to_py(r.best_action, r.actions, value, r.tracks, r.elapsed, extra);
  }, py::arg("state"), py::arg("stop") = nullptr);
  m.def("adn_heuristic_margin", [](const S& state, const py::handle& player) {
    const int p = static_cast<int>(int_arg(player, "player", 0, state.game->num_players() - 1));
    return adn::heuristic_margin(*state.game, state.state, p);
  }, py::arg("state"), py::arg("player"));
}

}  // namespace nutcore::bindings
