// Purzelbaum's tumbling-nut model (docs/rules/purzelbaum.md, "The tumbling-nut model"): where a nut
// shoved off a branch end lands. A model, not a rule; the game computes its chance probabilities
// from it when it is loaded. The Python reference keeps its own reading of the same model
// (python/nutcore/reference/tumble_model.py), and the tests compare the two tables.
//
// The nut lands at the branch end plus isotropic Gaussian noise of standard deviation sigma. For a
// target hole t the 2 + H outcomes (H holes) are
//     0        hit: the landing point is within hit_radius of hole t
//     1 + h    bury in hole h: inside the box, nearest hole h, and not a hit
//     1 + H    off the box: |x| > half_box or |y| > half_box
//
// Each nearest-hole cell clipped to the box is a convex polygon, integrated exactly in y (normal
// CDF) and by 20-point Gauss-Legendre in x over strips no wider than sigma / 2; the hit disk
// likewise after x = cx + r sin t, which makes its outer integrand smooth. The disk lies inside
// the target's cell (hit_radius is under half the distance between any two holes), so "bury in
// the target" is the cell minus the disk and "off the box" one minus everything else. Accurate to
// far better than the 1e-6 asked for.
#pragma once

#include <utility>
#include <vector>

namespace nutcore::purzelbaum {

struct MeadowGeometry {
  std::vector<std::pair<double, double>> holes;  // hole h at (x, y)
  std::vector<double> branch_lengths;            // branch b at b * 180 / n degrees; ends 2b, 2b + 1
  double half_box = 3.0;
  double hit_radius = 0.35;
};

// std::invalid_argument unless there are two holes or more, all inside the box, and
// 0 < hit_radius < half the distance between the closest two.
void check_geometry(const MeadowGeometry& g);

// The branch ends: end 2b at angle pi * b / n and radius branch_lengths[b], end 2b + 1 opposite.
std::vector<std::pair<double, double>> branch_ends(const std::vector<double>& branch_lengths);

// table[(end * H + target) * (H + 2) + outcome] for N(end, sigma^2 I), H = holes.size(); every
// row of H + 2 sums to 1. Checks the geometry and 0 < sigma <= 10 (std::invalid_argument).
std::vector<double> outcome_table(double sigma, const MeadowGeometry& g);

}  // namespace nutcore::purzelbaum
