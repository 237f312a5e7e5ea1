#include "bindings/game_binding.h"
#include "bindings/search_binding.h"
#include "games/purzelbaum/purzelbaum.h"

namespace nutcore::bindings {

void bind_purzelbaum(py::module_& m) {
  static_assert(GameConcept<purzel::Game>);
  bind_game<purzel::Game>(m, "PurzelbaumGame", "PurzelbaumState");
  bind_search<purzel::Game>(m);
}

}  // namespace nutcore::bindings
