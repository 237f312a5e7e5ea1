// Purzelbaum in nutcore._core: the common bindings, and what the generic layers ask of a game
// (its algorithms, what "auto" picks, its solver), answered here so that they name no game.
#include "bindings/game_binding.h"
#include "bindings/search_binding.h"
#include "games/purzelbaum/heuristic.h"
#include "games/purzelbaum/purzelbaum.h"
#include "games/purzelbaum/tumble_model.h"
#include "games/purzelbaum/winter_solver.h"

namespace nutcore::bindings {

void bind_purzelbaum(py::module_& m) {
  using S = PyState<purzel::Game>;
  static_assert(GameConcept<purzel::Game>);
  auto state_cls = bind_game<purzel::Game>(m, "PurzelbaumGame", "PurzelbaumState");
  bind_search<purzel::Game>(m);
  state_cls.attr("algorithms") = py::make_tuple("mcts", "expectimax", "solver");
  state_cls.attr("whole_game_solver") = true;  // any winter position, to the end of the game
  // Perfect memory makes the winter a game of perfect information: "auto" solves it exactly.
  m.def("auto_algorithm", [](const S& s) { return s.state.phase == purzel::Phase::kDig ? "solver" : "mcts"; },
        py::arg("state"));
  m.def("solver_applies", [](const S& s) { return s.state.phase == purzel::Phase::kDig; }, py::arg("state"),
        "True in winter, which the exact solver decides.");
  m.def("purzelbaum_outcome_table", [](double sigma, const std::vector<std::pair<double, double>>& holes,
                                        const std::vector<double>& branch_lengths, double half_box, double hit_radius) {
    // The C++ model's table, shaped as the reference's outcome_table: [end][target][outcome].
    const purzel::MeadowGeometry g{holes, branch_lengths, half_box, hit_radius};
    const std::vector<double> flat = purzel::outcome_table(sigma, g);
    const size_t per_row = holes.size() + 2, ends = 2 * branch_lengths.size();
    py::list table;
    for (size_t e = 0; e < ends; ++e) {
      py::list rows;
      for (size_t t = 0; t < holes.size(); ++t) {
        const auto first = flat.begin() + static_cast<long>((e * holes.size() + t) * per_row);
        rows.append(py::tuple(py::cast(std::vector<double>(first, first + static_cast<long>(per_row)))));
      }
      table.append(py::tuple(rows));
    }
    return py::tuple(table);
  }, py::arg("sigma"), py::arg("holes"), py::arg("branch_lengths"), py::arg("half_box"), py::arg("hit_radius"),
     "The tumbling model's table, as Purzelbaum's game computes it (tests compare it with the reference's).");
  m.def("exact_solve", [](const S& state, const StopToken* token) {
    // The solver works on a copy: Python may touch `state` while the GIL is released.
    const purzel::WinterSolution r = run_interruptible(
        [game = state.game, root = state.state](const StopFlag* stop) {
          return purzel::WinterSolver(game->num_players(), stop).solve(*game, root);
        },
        token);
    std::vector<ActionStats> stats;
    for (const auto& [a, v] : r.action_values) stats.push_back({a, 1, static_cast<double>(v)});
    py::dict extra;
    extra["positions"] = r.positions;
    extra["future"] = r.future;
    extra["evaluation"] = "64 * points + nuts, final, under best play";
    if (r.value.size() == 2) {
      const int mover = state.state.current;
      extra["outcome"] = r.outcome > 0 ? "win" : r.outcome < 0 ? "loss" : "draw";
      // Values are 64 * points + nuts with nuts < 64: whole division gives the points.
      extra["margin_points"] =
          static_cast<long>(r.value[mover]) / 64 - static_cast<long>(r.value[1 - mover]) / 64;
    }
    return solver_result_to_py(r.best_action, stats, r.value, r.positions, r.elapsed, extra);
  }, py::arg("state"), py::arg("stop") = nullptr);
}

}  // namespace nutcore::bindings
