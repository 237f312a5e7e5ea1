// Auf die Nüsse! in nutcore._core: its classes and policies (from its declaration), and a hook the
// search tests read (in the private nutcore._core._testing).
#include "bindings/search_binding.h"
#include "games/auf_die_nuesse/declaration.h"

namespace nutcore::bindings {

void bind_auf_die_nuesse(py::module_& m) {
  using S = engine::StateModel<declare::auf_die_nuesse>;
  bind_declared_game<declare::auf_die_nuesse>(m);
  py::module_ testing = m.attr("_testing");
  testing.def(
      "adn_heuristic_margin",
      [](const S& state, const IndexArg& player) {
        const int p = static_cast<int>(int_arg(player, "player", 0, state.game().num_players() - 1));
        return adn::heuristic_margin(state.rules(), state.state(), p);
      },
      py::arg("state"), py::arg("player"));
}

}  // namespace nutcore::bindings
