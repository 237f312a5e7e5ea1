// Purzelbaum's tumbling model's table, which the tests compare with the reference's, in the private
// nutcore._core._testing (its Python classes are the generic Game and State).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <utility>
#include <vector>

#include "bindings/boundary.h"
#include "games/purzelbaum/tumble_model.h"

namespace nutcore::bindings {

void bind_purzelbaum_testing(py::module_& m) {
  py::module_ testing = m.attr("_testing");
  testing.def(
      "purzelbaum_outcome_table",
      [](double sigma, const std::vector<std::pair<double, double>>& holes, const std::vector<double>& branch_lengths,
         double half_box, double hit_radius) {
        // The C++ model's table, shaped as the reference's outcome_table: [end][target][outcome].
        const purzelbaum::MeadowGeometry g{holes, branch_lengths, half_box, hit_radius};
        const std::vector<double> flat = purzelbaum::outcome_table(sigma, g);
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
      },
      py::arg("sigma"), py::arg("holes"), py::arg("branch_lengths"), py::arg("half_box"), py::arg("hit_radius"),
      "The tumbling model's table, as Purzelbaum's game computes it (tests compare it with the reference's).");
}

}  // namespace nutcore::bindings
