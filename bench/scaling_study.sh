#!/usr/bin/env bash
# Issue 12's scaling study and level calibration, with `nutcore tournament` (2 players, seats rotated).
#   bench/scaling_study.sh OUT [scaling|levels] [GAME ...]
# scaling: MCTS (ISMCTS on the hidden-information games) at 100..10,000 iterations, each against
#          greedy (a gauntlet); rating against budget in OUT/scaling-GAME/ and docs/images/.
# levels:  level:1..level:11, each against its neighbours (a ladder): the ratings in docs/levels.md.
# Budgets are iterations, so the results do not depend on the machine's speed; rerunning with the
# same OUT resumes. About an hour on 2 cores for everything.
set -euo pipefail
out=${1:?give an output directory}
what=${2:-scaling levels}
shift 2 || true
games=("$@")
[ ${#games[@]} -gt 0 ] || read -r -a games <<<"$(python -c 'import nutcore; print(*nutcore.list_games())')"
# Games per study where the default (300 and 360) was not what the runs recorded used.
declare -A scaling_games=([auf_die_nuesse]=100 [purzelbaum]=500 [ritter]=100)
declare -A level_games=([purzelbaum]=540 [nutz]=540)
mkdir -p "$out" docs/images
for game in "${games[@]}"; do
  for kind in $what; do
    bots=()
    if [ "$kind" = scaling ]; then
      # MCTS, or ISMCTS on a game of hidden information (the only tree search it offers).
      algorithm=$(python -c "import nutcore; print('ismcts' if nutcore.load_game('$game').hidden_information else 'mcts')")
      bots+=(--bot greedy)
      for n in 100 300 1000 3000 10000; do bots+=(--bot "$algorithm:iterations=$n"); done
      python -m nutcore tournament "$game" --players 2 "${bots[@]}" --schedule gauntlet \
        --games "${scaling_games[$game]:-300}" --seed 12 --workers 2 --quiet \
        --output "$out/scaling-$game" --plot "docs/images/scaling-$game.png" > "$out/scaling-$game.md"
    else
      for n in 1 2 3 4 5 6 7 8 9 10 11; do bots+=(--bot "level:$n"); done
      python -m nutcore tournament "$game" --players 2 "${bots[@]}" --schedule ladder \
        --games "${level_games[$game]:-360}" --seed 12 --workers 2 --quiet \
        --output "$out/levels-$game" --plot "$out/levels-$game.png" > "$out/levels-$game.md"
    fi
  done
done
