// Die Ritter von der Haselnuss's declared hooks (declaration.h).
#include "games/ritter/declaration.h"

namespace nutcore::declare {

nutcore::ritter::Params ritter::fuzz_params(int players, int turn_cap, int variant) {
  nutcore::ritter::Params p;
  p.players = players;
  if (turn_cap) p.turn_cap = turn_cap;
  p.first_only = variant % 2;  // both shouting rules
  return p;
}

}  // namespace nutcore::declare
