// Nutz! in nutcore._core: the common bindings, and what the generic layers ask of a game (its
// algorithms, what "auto" picks), answered here so that they name no game.
#include "bindings/game_binding.h"
#include "bindings/search_binding.h"
#include "games/nutz/heuristic.h"
#include "games/nutz/nutz.h"

namespace nutcore::bindings {

void bind_nutz(py::module_& m) {
  using S = PyState<nutz::Game>;
  static_assert(GameConcept<nutz::Game>);
  auto state_cls = bind_game<nutz::Game>(m, "NutzGame", "NutzState");
  bind_search<nutz::Game>(m);
  // Hidden information: only the searches that play from the seat's information set.
  state_cls.attr("algorithms") = py::make_tuple("ismcts", "pimc");
  state_cls.attr("whole_game_solver") = false;
  m.def("auto_algorithm", [](const S&) { return "ismcts"; }, py::arg("state"));
  m.def("solver_applies", [](const S&) { return false; }, py::arg("state"), "Nutz! has no exact solver.");
}

}  // namespace nutcore::bindings
