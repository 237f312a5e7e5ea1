// Die Ritter von der Haselnuss in nutcore._core: its classes and policies, from its declaration.
#include "bindings/search_binding.h"
#include "games/ritter/declaration.h"

namespace nutcore::bindings {

void bind_ritter(py::module_& m) { bind_declared_game<declare::ritter>(m); }

}  // namespace nutcore::bindings
