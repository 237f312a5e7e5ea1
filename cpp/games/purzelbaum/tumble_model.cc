// Purzelbaum's tumbling-nut model: the quadrature (tumble_model.h). Its tables must be the same to
// the last bit on every platform (native with any libm, WebAssembly), or searches would part ways
// wherever two probabilities tie: so it calls no libm function but sqrt, which IEEE 754 rounds
// exactly, and computes exp, erfc, sin, cos and asin itself (below) from +, -, *, / in a fixed
// order. The reference uses Python's math module; the tests hold the two tables within 1e-12.
#include "games/purzelbaum/tumble_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace nutcore::purzelbaum {

namespace {

using Point = std::pair<double, double>;
using Polygon = std::vector<Point>;

constexpr double kPi = 3.141592653589793;
constexpr double kHalfPi = 1.5707963267948966;
constexpr int kNodes = 20;  // Gauss-Legendre points per strip
// Probabilities taken as 0 (rulings of the model), so that whether an outcome is listed does not
// hang on the last bits: a far tail under 1e-100 (it underflows differently in different
// arithmetic), and a difference of probabilities under 1e-13 (the cell minus the hit disk, and the
// rest off the box: differences of numbers near 1, known only to about 1e-15).
constexpr double kNegligible = 1e-100;
constexpr double kCancellation = 1e-13;

// ----- elementary functions, portable to the bit (within 1-3 ulp of the true value)

// Taylor coefficients, each from the last by one division: the same doubles everywhere.
template <int N, typename Next>
constexpr std::array<double, N> series(Next next) {
  std::array<double, N> c{};
  c[0] = 1.0;
  for (int n = 1; n < N; ++n) c[n] = next(c[n - 1], n);
  return c;
}
constexpr auto kExp = series<19>([](double c, int n) { return c / n; });                         // 1 / n!
constexpr auto kSin = series<14>([](double c, int n) { return -c / ((2 * n) * (2 * n + 1)); });  // (-1)^n / (2n+1)!
constexpr auto kCos = series<14>([](double c, int n) { return -c / ((2 * n - 1) * (2 * n)); });  // (-1)^n / (2n)!
constexpr auto kAsin = series<40>([](double c, int n) {                                          // asin's, of x^(2n+1)
  return c * ((2 * n - 1) * (2 * n - 1)) / ((2 * n) * (2 * n + 1));
});

template <size_t N>
double horner(const std::array<double, N>& c, double x) {
  double p = c[N - 1];
  for (size_t i = N - 1; i-- > 0;) p = p * x + c[i];
  return p;
}

// exp: x = k ln 2 + r with |r| <= ln 2 / 2 (ln 2 in two parts, so k * kLn2Hi is exact), then the
// series of e^r, scaled by 2^k: exact, but for results under 2^-1021, which are flushed to 0 (libms
// round their subnormals differently).
double exp_(double x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kInvLn2 = 1.44269504088896338700e+00;
  const double k = std::floor(x * kInvLn2 + 0.5);
  if (k < -1021) return 0.0;
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  return std::ldexp(horner(kExp, r), static_cast<int>(k));
}

// sin and cos: x = k pi/2 + r with |r| <= pi/4, then the series of r by the quadrant.
double reduce(double x, int& quadrant) {
  constexpr double kHalfPiHi = 1.57079632673412561417e+00, kHalfPiLo = 6.07710050650619224932e-11;
  constexpr double kTwoOverPi = 6.36619772367581382433e-01;
  const double k = std::floor(x * kTwoOverPi + 0.5);
  quadrant = static_cast<int>(k - 4 * std::floor(k / 4));
  return (x - k * kHalfPiHi) - k * kHalfPiLo;
}
double sin_series(double r) { return r * horner(kSin, r * r); }
double cos_series(double r) { return horner(kCos, r * r); }
double sin_(double x) {
  int q;
  const double r = reduce(x, q);
  return q == 0 ? sin_series(r) : q == 1 ? cos_series(r) : q == 2 ? -sin_series(r) : -cos_series(r);
}
double cos_(double x) {
  int q;
  const double r = reduce(x, q);
  return q == 0 ? cos_series(r) : q == 1 ? -sin_series(r) : q == 2 ? -cos_series(r) : sin_series(r);
}

// asin on [-1, 1]: its series up to |x| = 1/2, beyond by asin x = pi/2 - 2 asin sqrt((1 - x) / 2).
double asin_(double x) {
  const double a = std::abs(x);
  const auto small = [](double v) { return v * horner(kAsin, v * v); };
  const double y = a <= 0.5 ? small(a) : kHalfPi - 2 * small(std::sqrt((1 - a) * 0.5));
  return x < 0 ? -y : y;
}

// erfc: below 1.5 as 1 - erf, erf by its series of positive terms (2/sqrt(pi)) e^(-x^2) sum
// 2^n x^(2n+1) / (2n+1)!!; from 1.5 on by the continued fraction
// erfc x = e^(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))).
double erfc_(double x) {
  constexpr double kSqrtPi = 1.7724538509055159, kTwoOverSqrtPi = 1.1283791670955126;
  if (x < 0) return 2 - erfc_(-x);
  if (x < 1.5) {
    const double two_x2 = 2 * x * x;
    double term = x, sum = x;
    for (int n = 1; term > 1e-17 * sum; ++n) {
      term = term * two_x2 / (2 * n + 1);
      sum += term;
    }
    return 1 - kTwoOverSqrtPi * exp_(-x * x) * sum;
  }
  if (x > 27.3) return 0.0;  // below the smallest double
  // Levels enough for the last bit (measured against 600 levels), fewer as x grows.
  const int levels = x < 1.75  ? 120
                     : x < 2   ? 100
                     : x < 2.5 ? 80
                     : x < 3   ? 60
                     : x < 4   ? 48
                     : x < 6   ? 32
                     : x < 10  ? 16
                               : 12;
  double f = x;
  for (int n = levels; n >= 1; --n) f = x + (n * 0.5) / f;
  return exp_(-x * x) / (kSqrtPi * f);
}

double square(double v) { return v * v; }

double negligible_as_zero(double p, double below = kNegligible) { return p < below ? 0.0 : p; }

struct GaussLegendre {
  double nodes[kNodes];
  double weights[kNodes];
};

// Nodes and weights on [-1, 1] by Newton's iteration on the Legendre polynomial.
GaussLegendre gauss_legendre() {
  GaussLegendre gl{};
  const int n = kNodes;
  for (int i = 1; i <= n; ++i) {
    double x = cos_(kPi * (i - 0.25) / (n + 0.5));
    double dp = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    gl.nodes[i - 1] = x;
    gl.weights[i - 1] = 2 / ((1 - x * x) * dp * dp);
  }
  return gl;
}

const GaussLegendre& rule() {
  static const GaussLegendre gl = gauss_legendre();
  return gl;
}

double phi_cdf(double z) { return 0.5 * erfc_(-z / std::sqrt(2.0)); }

// Sutherland-Hodgman: the part of a convex polygon with a x + b y <= c.
Polygon clip(const Polygon& polygon, double a, double b, double c) {
  Polygon out;
  const size_t n = polygon.size();
  for (size_t i = 0; i < n; ++i) {
    const Point& p = polygon[i];
    const Point& q = polygon[(i + 1) % n];
    const double fp = a * p.first + b * p.second - c;
    const double fq = a * q.first + b * q.second - c;
    if (fp <= 0) out.push_back(p);
    if ((fp < 0 && 0 < fq) || (fq < 0 && 0 < fp)) {
      const double t = fp / (fp - fq);
      out.emplace_back(p.first + t * (q.first - p.first), p.second + t * (q.second - p.second));
    }
  }
  return out;
}

// Each hole's nearest-hole cell clipped to the box.
std::vector<Polygon> voronoi_cells(const std::vector<Point>& holes, double half_box) {
  const Polygon box = {{-half_box, -half_box}, {half_box, -half_box}, {half_box, half_box}, {-half_box, half_box}};
  std::vector<Polygon> cells;
  for (size_t i = 0; i < holes.size(); ++i) {
    const auto [xi, yi] = holes[i];
    Polygon poly = box;
    for (size_t j = 0; j < holes.size(); ++j) {
      if (i == j) continue;
      const auto [xj, yj] = holes[j];
      // Closer to i than to j: 2 (xj - xi) x + 2 (yj - yi) y <= |j|^2 - |i|^2.
      poly = clip(poly, 2 * (xj - xi), 2 * (yj - yi), xj * xj + yj * yj - xi * xi - yi * yi);
    }
    cells.push_back(std::move(poly));
  }
  return cells;
}

double normal_density(double x, double mean, double sigma) {
  return exp_(-0.5 * square((x - mean) / sigma)) / (sigma * std::sqrt(2 * kPi));
}

// P(landing in a convex polygon) for N((mx, my), sigma^2 I).
double polygon_probability(const Polygon& poly, double mx, double my, double sigma) {
  if (poly.size() < 3) return 0.0;
  std::vector<double> xs;
  for (const Point& p : poly) xs.push_back(p.first);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const GaussLegendre& gl = rule();
  double total = 0.0;
  for (size_t s = 0; s + 1 < xs.size(); ++s) {
    double x0 = xs[s], x1 = xs[s + 1];
    if (x1 - x0 < 1e-15) continue;
    // The two edges that span the strip bound the polygon within it; they are found at its
    // midpoint, before the strip is cut to 12 sigma around the mean (beyond, the density weighs
    // less than 1e-32).
    const double xm = 0.5 * (x0 + x1);
    std::vector<std::pair<double, double>> lines;  // (slope, intercept)
    for (size_t i = 0; i < poly.size(); ++i) {
      const Point& p = poly[i];
      const Point& q = poly[(i + 1) % poly.size()];
      if (std::min(p.first, q.first) <= xm && xm <= std::max(p.first, q.first) && p.first != q.first) {
        const double slope = (q.second - p.second) / (q.first - p.first);
        lines.emplace_back(slope, p.second - slope * p.first);
      }
    }
    if (lines.size() < 2) continue;
    std::stable_sort(lines.begin(), lines.end(),
                     [xm](const auto& a, const auto& b) { return a.first * xm + a.second < b.first * xm + b.second; });
    const auto [s_lo, c_lo] = lines.front();
    const auto [s_hi, c_hi] = lines.back();
    x0 = std::max(x0, mx - 12 * sigma);
    x1 = std::min(x1, mx + 12 * sigma);
    if (x1 <= x0) continue;
    const double pieces = std::max(1.0, std::ceil((x1 - x0) / (0.5 * sigma)));
    const double h = (x1 - x0) / pieces;
    for (long k = 0; k < static_cast<long>(pieces); ++k) {
      const double a = x0 + k * h;
      for (int i = 0; i < kNodes; ++i) {
        const double x = a + 0.5 * h * (gl.nodes[i] + 1);
        const double dens = normal_density(x, mx, sigma);
        const double inner = phi_cdf((s_hi * x + c_hi - my) / sigma) - phi_cdf((s_lo * x + c_lo - my) / sigma);
        total += 0.5 * h * gl.weights[i] * dens * inner;
      }
    }
  }
  return total;
}

// P(landing within `radius` of (cx, cy)) for N((mx, my), sigma^2 I): with x = cx + radius sin t
// the disk's height at x is cy +- radius cos t, taken exactly by the normal CDF, and the outer
// integral over t is smooth.
double disk_probability(double cx, double cy, double radius, double mx, double my, double sigma) {
  const double lo = std::max(-1.0, (mx - 12 * sigma - cx) / radius);
  const double hi = std::min(1.0, (mx + 12 * sigma - cx) / radius);
  if (lo >= hi) return 0.0;
  const double t0 = asin_(lo), t1 = asin_(hi);
  const double pieces = std::max(1.0, std::ceil((t1 - t0) * radius / (0.5 * sigma)));
  const double h = (t1 - t0) / pieces;
  const double norm = 1.0 / (sigma * std::sqrt(2 * kPi));
  const GaussLegendre& gl = rule();
  double total = 0.0;
  for (long k = 0; k < static_cast<long>(pieces); ++k) {
    const double a = t0 + k * h;
    for (int i = 0; i < kNodes; ++i) {
      const double t = a + 0.5 * h * (gl.nodes[i] + 1);
      const double x = cx + radius * sin_(t);
      const double half = radius * cos_(t);
      const double inner = phi_cdf((cy + half - my) / sigma) - phi_cdf((cy - half - my) / sigma);
      const double dens = norm * exp_(-0.5 * square((x - mx) / sigma));
      total += 0.5 * h * gl.weights[i] * dens * inner * radius * cos_(t);
    }
  }
  return total;
}

}  // namespace

void check_geometry(const MeadowGeometry& g) {
  if (g.holes.size() < 2) throw std::invalid_argument("the meadow needs at least two holes");
  for (const auto& [x, y] : g.holes)
    if (!(std::abs(x) < g.half_box && std::abs(y) < g.half_box))
      throw std::invalid_argument("hole (" + std::to_string(x) + ", " + std::to_string(y) + ") is outside the box");
  double closest = INFINITY;
  for (size_t i = 0; i < g.holes.size(); ++i)
    for (size_t j = i + 1; j < g.holes.size(); ++j)
      closest =
          std::min(closest, std::hypot(g.holes[i].first - g.holes[j].first, g.holes[i].second - g.holes[j].second));
  if (!(0 < g.hit_radius && g.hit_radius < closest / 2))
    throw std::invalid_argument("hit_radius must be in (0, " + std::to_string(closest / 2) +
                                "): half the distance between the closest holes");
}

std::vector<Point> branch_ends(const std::vector<double>& branch_lengths) {
  const size_t n = branch_lengths.size();
  std::vector<Point> ends;
  for (size_t b = 0; b < n; ++b) {
    const double r = branch_lengths[b];
    const double a = kPi * static_cast<double>(b) / static_cast<double>(n);
    ends.emplace_back(r * cos_(a), r * sin_(a));
    ends.emplace_back(-r * cos_(a), -r * sin_(a));
  }
  return ends;
}

std::vector<double> outcome_table(double sigma, const MeadowGeometry& g) {
  if (!(sigma > 0 && sigma <= 10)) throw std::invalid_argument("sigma must be a number in (0, 10]");
  check_geometry(g);
  const std::vector<Polygon> cells = voronoi_cells(g.holes, g.half_box);
  const size_t holes = g.holes.size();
  std::vector<double> table;
  for (const auto& [mx, my] : branch_ends(g.branch_lengths)) {
    std::vector<double> cell_p;
    for (const Polygon& c : cells)
      cell_p.push_back(negligible_as_zero(std::min(1.0, polygon_probability(c, mx, my, sigma))));
    for (size_t t = 0; t < holes; ++t) {
      const auto [tx, ty] = g.holes[t];
      // The disk lies inside the target's cell; the clamp keeps rounding from breaking that.
      const double hit = negligible_as_zero(std::min(disk_probability(tx, ty, g.hit_radius, mx, my, sigma), cell_p[t]));
      std::vector<double> bury = cell_p;
      bury[t] = negligible_as_zero(bury[t] - hit, kCancellation);
      double buried = 0.0;
      for (double p : bury) buried += p;
      table.push_back(hit);
      table.insert(table.end(), bury.begin(), bury.end());
      table.push_back(negligible_as_zero(1.0 - hit - buried, kCancellation));
    }
  }
  return table;
}

}  // namespace nutcore::purzelbaum
