// Nutz!'s declared hooks (declaration.h).
#include "games/nutz/declaration.h"

namespace nutcore::declare {

nutcore::nutz::Params nutz::fuzz_params(int players, int turn_cap, int variant) {
  nutcore::nutz::Params p;
  p.players = players;
  if (turn_cap) p.turn_cap = turn_cap;
  p.last_tree_tokens = 1 + variant % 4;  // short games too
  return p;
}

}  // namespace nutcore::declare
