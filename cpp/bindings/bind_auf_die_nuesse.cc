#include "bindings/game_binding.h"
#include "games/auf_die_nuesse/auf_die_nuesse.h"

namespace nutcore::bindings {

void bind_auf_die_nuesse(py::module_& m) {
  static_assert(GameConcept<adn::Game>);
  bind_game<adn::Game>(m, "AufDieNuesseGame", "AufDieNuesseState");
}

}  // namespace nutcore::bindings
