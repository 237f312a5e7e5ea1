"""The tumbling-nut model of Purzelbaum (the project's rulings, docs/rules/purzelbaum.md): where a
nut shoved off a branch end lands, and what that means for the turn.

A model, not a rule: this is the reference's own reading of it (the native game computes it in
C++, cpp/games/purzelbaum/tumble_model.cc; tests/games/test_tumble_model.py compares the two tables).

The nut lands at the branch end plus isotropic Gaussian noise of standard deviation sigma. For a
target hole t the 22 outcomes are

    0          hit: the landing point is within hit_radius of hole t
    1 + h      bury in hole h (h = 0..19): inside the box, nearest hole h, and not a hit
    21         off the box: |x| > half_box or |y| > half_box

Probabilities come from deterministic quadrature: every nearest-hole (Voronoi) cell, clipped to
the box, is a convex polygon, integrated exactly in y (normal CDF) and by composite Gauss-Legendre
in x over strips no wider than sigma / 2; the hit disk likewise, after the substitution
x = cx + r sin t that makes its outer integrand smooth. The disk lies inside the target's cell
(hit_radius is checked to be less than half the distance between any two holes), so "bury in the
target" is cell minus disk, and "off the box" is one minus everything else. Accuracy is far
better than the 1e-6 asked for (tests compare with closed forms and with Monte-Carlo).
"""

from __future__ import annotations

import math
from functools import lru_cache

# Default board (the rulings, docs/rules/purzelbaum.md): holes at the integer points of [-2, 2]^2
# except the trunk (0, 0) and the four corners, indexed in (y, x) order; box [-3, 3]^2; branch b
# at b * 22.5 degrees, even branches short (1.3), odd long (2.1); end 2b at that angle, 2b + 1
# opposite.
DEFAULT_HOLES = tuple(
    (x, y) for y in range(-2, 3) for x in range(-2, 3) if (x, y) != (0, 0) and not (abs(x) == 2 and abs(y) == 2)
)
DEFAULT_BRANCH_LENGTHS = (1.3, 2.1, 1.3, 2.1, 1.3, 2.1, 1.3, 2.1)
DEFAULT_HALF_BOX = 3.0
DEFAULT_HIT_RADIUS = 0.35
DEFAULT_SIGMA = 0.5


def branch_ends(branch_lengths=DEFAULT_BRANCH_LENGTHS):
    """End e = 2b at angle b * 180 / n_branches degrees and radius branch_lengths[b]; 2b + 1 opposite."""
    n = len(branch_lengths)
    ends = []
    for b, r in enumerate(branch_lengths):
        a = math.pi * b / n
        ends.append((r * math.cos(a), r * math.sin(a)))
        ends.append((-r * math.cos(a), -r * math.sin(a)))
    return tuple(ends)


def _gauss_legendre(n):
    """Nodes and weights on [-1, 1] by Newton iteration on the Legendre polynomial."""
    nodes, weights = [], []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            dp = n * (x * p1 - p0) / (x * x - 1)
            dx = p1 / dp
            x -= dx
            if abs(dx) < 1e-16:
                break
        nodes.append(x)
        weights.append(2 / ((1 - x * x) * dp * dp))
    return nodes, weights


_GL_NODES, _GL_WEIGHTS = _gauss_legendre(20)
_SQRT2 = math.sqrt(2.0)


def _phi_cdf(z):
    return 0.5 * math.erfc(-z / _SQRT2)


def _clip(polygon, a, b, c):
    """Sutherland-Hodgman: keep the part of a convex polygon with a*x + b*y <= c."""
    out = []
    n = len(polygon)
    for i in range(n):
        p, q = polygon[i], polygon[(i + 1) % n]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def voronoi_cells(holes=DEFAULT_HOLES, half_box=DEFAULT_HALF_BOX):
    """Each hole's nearest-hole cell clipped to the box, as a convex polygon (vertex list)."""
    box = [(-half_box, -half_box), (half_box, -half_box), (half_box, half_box), (-half_box, half_box)]
    cells = []
    for i, (xi, yi) in enumerate(holes):
        poly = box
        for j, (xj, yj) in enumerate(holes):
            if i != j:
                # closer to i than to j:  2 (xj - xi) x + 2 (yj - yi) y <= |j|^2 - |i|^2
                poly = _clip(poly, 2 * (xj - xi), 2 * (yj - yi), xj * xj + yj * yj - xi * xi - yi * yi)
        cells.append(poly)
    return cells


def _polygon_probability(poly, mx, my, sigma):
    """P(landing in a convex polygon) for N((mx, my), sigma^2 I)."""
    if len(poly) < 3:
        return 0.0
    xs = sorted({p[0] for p in poly})
    edges = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    total = 0.0
    for x0, x1 in zip(xs, xs[1:]):
        if x1 - x0 < 1e-15:
            continue
        # Beyond 12 sigma from the mean in x the density weighs less than 1e-32: skip it. The edges
        # spanning the strip are found at its midpoint, before narrowing it.
        # Within the strip the polygon is bounded by the two edges that span it.
        xm = 0.5 * (x0 + x1)
        ys = []
        for p, q in edges:
            if min(p[0], q[0]) <= xm <= max(p[0], q[0]) and p[0] != q[0]:
                slope = (q[1] - p[1]) / (q[0] - p[0])
                ys.append((slope, p[1] - slope * p[0]))
        if len(ys) < 2:
            continue
        ys.sort(key=lambda e: e[0] * xm + e[1])
        (s_lo, c_lo), (s_hi, c_hi) = ys[0], ys[-1]
        x0, x1 = max(x0, mx - 12 * sigma), min(x1, mx + 12 * sigma)
        if x1 <= x0:
            continue
        pieces = max(1, math.ceil((x1 - x0) / (0.5 * sigma)))
        h = (x1 - x0) / pieces
        for k in range(pieces):
            a = x0 + k * h
            for node, weight in zip(_GL_NODES, _GL_WEIGHTS):
                x = a + 0.5 * h * (node + 1)
                dens = math.exp(-0.5 * ((x - mx) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))
                inner = _phi_cdf((s_hi * x + c_hi - my) / sigma) - _phi_cdf((s_lo * x + c_lo - my) / sigma)
                total += 0.5 * h * weight * dens * inner
    return total


def _disk_probability(cx, cy, radius, mx, my, sigma):
    """P(landing within `radius` of (cx, cy)) for N((mx, my), sigma^2 I).

    With x = cx + radius * sin(t) the disk's vertical extent is cy +- radius * cos(t), integrated
    exactly by the normal CDF; the outer integral over t is smooth (no square-root end points) and
    is taken by composite Gauss-Legendre with steps no wider than sigma / 2 in x, over the part of
    the disk within 12 sigma of the mean in x (the rest weighs less than 1e-32).
    """
    lo = max(-1.0, (mx - 12 * sigma - cx) / radius)
    hi = min(1.0, (mx + 12 * sigma - cx) / radius)
    if lo >= hi:
        return 0.0
    t0, t1 = math.asin(lo), math.asin(hi)
    pieces = max(1, math.ceil((t1 - t0) * radius / (0.5 * sigma)))
    h = (t1 - t0) / pieces
    norm = 1.0 / (sigma * math.sqrt(2 * math.pi))
    total = 0.0
    for k in range(pieces):
        a = t0 + k * h
        for node, weight in zip(_GL_NODES, _GL_WEIGHTS):
            t = a + 0.5 * h * (node + 1)
            x = cx + radius * math.sin(t)
            half = radius * math.cos(t)
            inner = _phi_cdf((cy + half - my) / sigma) - _phi_cdf((cy - half - my) / sigma)
            dens = norm * math.exp(-0.5 * ((x - mx) / sigma) ** 2)
            total += 0.5 * h * weight * dens * inner * radius * math.cos(t)
    return total


def check_geometry(holes, half_box, hit_radius):
    if len(holes) < 2:
        raise ValueError("the meadow needs at least two holes")
    for x, y in holes:
        if not (abs(x) < half_box and abs(y) < half_box):
            raise ValueError(f"hole {(x, y)} is outside the box")
    closest = min(math.dist(p, q) for i, p in enumerate(holes) for q in holes[i + 1 :])
    if not 0 < hit_radius < closest / 2:
        raise ValueError(f"hit_radius must be in (0, {closest / 2}): half the distance between the closest holes")


# Two rulings, so that the outcomes listed do not depend on how a platform rounds: a far tail below
# NEGLIGIBLE counts as 0 (underflow), and so does a difference of near-1 probabilities below
# CANCELLATION (the target's cell minus its hit disk; whatever is left for "off the box").
NEGLIGIBLE = 1e-100
CANCELLATION = 1e-13


def _zero_if_negligible(p, threshold=NEGLIGIBLE):
    return 0.0 if p < threshold else p


@lru_cache(maxsize=64)
def outcome_table(
    sigma=DEFAULT_SIGMA,
    holes=DEFAULT_HOLES,
    branch_lengths=DEFAULT_BRANCH_LENGTHS,
    half_box=DEFAULT_HALF_BOX,
    hit_radius=DEFAULT_HIT_RADIUS,
):
    """table[end][target] = tuple of 2 + len(holes) probabilities: hit, bury in hole 0.., off the box."""
    if not (isinstance(sigma, (int, float)) and 0 < sigma <= 10):
        raise ValueError("sigma must be a number in (0, 10]")
    holes = tuple((float(x), float(y)) for x, y in holes)
    check_geometry(holes, half_box, hit_radius)
    cells = voronoi_cells(holes, half_box)
    table = []
    for mx, my in branch_ends(branch_lengths):
        cell_p = [_zero_if_negligible(min(1.0, _polygon_probability(c, mx, my, sigma))) for c in cells]
        rows = []
        for t, (tx, ty) in enumerate(holes):
            # The disk lies inside the target's cell; clamping keeps rounding from breaking that.
            hit = _zero_if_negligible(min(_disk_probability(tx, ty, hit_radius, mx, my, sigma), cell_p[t]))
            bury = list(cell_p)
            bury[t] = _zero_if_negligible(bury[t] - hit, CANCELLATION)
            off = _zero_if_negligible(1.0 - hit - sum(bury), CANCELLATION)
            rows.append(tuple([hit, *bury, off]))
        table.append(tuple(rows))
    return tuple(table)
