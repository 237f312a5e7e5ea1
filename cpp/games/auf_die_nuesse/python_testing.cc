// Auf die Nüsse!'s hook for the search tests, in the private nutcore._core._testing (its Python
// classes are the generic Game and State, with no code of its own).
#include "bindings/game_hooks.h"
#include "games/auf_die_nuesse/declaration.h"

namespace nutcore::bindings {

void bind_auf_die_nuesse_testing(py::module_& m) {
  py::module_ testing = m.attr("_testing");
  testing.def(
      "adn_heuristic_margin",
      [](const engine::AnyState& any, const IndexArg& player) {
        const auto& state = state_model<declare::auf_die_nuesse>(any, "adn_heuristic_margin");
        const int p = static_cast<int>(int_arg(player, "player", 0, state.game().num_players() - 1));
        return auf_die_nuesse::heuristic_margin(state.rules(), state.state(), p);
      },
      py::arg("state"), py::arg("player"));
}

}  // namespace nutcore::bindings
