// Nutz! in nutcore._core: its classes and policies, from its declaration.
#include "bindings/search_binding.h"
#include "games/nutz/declaration.h"

namespace nutcore::bindings {

void bind_nutz(py::module_& m) { bind_declared_game<declare::nutz>(m); }

}  // namespace nutcore::bindings
