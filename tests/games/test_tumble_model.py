"""The Purzelbaum tumbling-nut model (issue 4, item 1): exactness checks on the reference's
quadrature, and the C++ model (the one the game uses) against it over many parameter sets."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nutcore
from nutcore import _core
from nutcore.reference import tumble_model as tm

TABLE = tm.outcome_table()
ENDS = tm.branch_ends()
HOLES = tm.DEFAULT_HOLES


@pytest.mark.parametrize("sigma", [0.005, 0.012, 0.5, 3.0, 10.0])
def test_shape_and_probabilities_sum_to_one(sigma):
    table = tm.outcome_table(sigma=sigma)
    assert len(table) == 16 and all(len(row) == 20 for row in table)
    for row in table:
        for outcomes in row:
            assert len(outcomes) == 22 and 0 <= min(outcomes) and max(outcomes) <= 1
            assert sum(outcomes) == pytest.approx(1.0, abs=1e-12)


def test_default_geometry():
    assert len(HOLES) == 20 and HOLES[0] == (-1, -2) and HOLES[-1] == (1, 2)
    assert (0, 0) not in HOLES and (2, 2) not in HOLES
    assert ENDS[0] == pytest.approx((1.3, 0.0)) and ENDS[1] == pytest.approx((-1.3, 0.0))
    assert ENDS[2] == pytest.approx((2.1 * math.cos(math.pi / 8), 2.1 * math.sin(math.pi / 8)))


def test_off_the_box_matches_the_closed_form():
    def box_probability(mx, my, s=tm.DEFAULT_SIGMA):
        cdf = lambda z: 0.5 * math.erfc(-z / math.sqrt(2))  # noqa: E731
        return (cdf((3 - mx) / s) - cdf((-3 - mx) / s)) * (cdf((3 - my) / s) - cdf((-3 - my) / s))

    for e, (mx, my) in enumerate(ENDS):
        for t in range(20):
            assert TABLE[e][t][21] == pytest.approx(1 - box_probability(mx, my), abs=1e-12)


def test_disk_quadrature_matches_the_closed_form():
    # Centred on the mean: P(|X| <= R) = 1 - exp(-R^2 / (2 sigma^2)).
    for sigma in (0.005, 0.1, 0.5, 1.5):
        for radius in (0.1, 0.35, 0.49):
            expected = 1 - math.exp(-(radius**2) / (2 * sigma**2))
            assert tm._disk_probability(0.0, 0.0, radius, 0.0, 0.0, sigma) == pytest.approx(expected, abs=1e-10)


def rotate(point, quarter_turns):
    x, y = point
    for _ in range(quarter_turns):
        x, y = -y, x
    return (x, y)


def test_symmetry_of_the_default_board():
    # A quarter turn maps holes to holes and end e (angle 22.5 * k) to the end at angle + 90 degrees.
    angle_index = {}
    for e, (x, y) in enumerate(ENDS):
        angle_index[round(math.degrees(math.atan2(y, x)), 6) % 360] = e
    hole_index = {h: i for i, h in enumerate(HOLES)}
    for e, (x, y) in enumerate(ENDS):
        rx, ry = rotate((x, y), 1)
        e2 = angle_index[round(math.degrees(math.atan2(ry, rx)), 6) % 360]
        for t, hole in enumerate(HOLES):
            t2 = hole_index[rotate(hole, 1)]
            mapped = [TABLE[e2][t2][0]] + [0.0] * 20 + [TABLE[e2][t2][21]]
            for h, other in enumerate(HOLES):
                mapped[1 + h] = TABLE[e2][t2][1 + hole_index[rotate(other, 1)]]
            assert mapped == pytest.approx(list(TABLE[e][t]), abs=1e-9)


def test_hit_probability_falls_with_sigma_and_distance():
    # End 0 lies 0.3 from hole (1, 0), inside the hit disk: more noise, fewer hits.
    target = HOLES.index((1, 0))
    hits = [tm.outcome_table(sigma=s)[0][target][0] for s in (0.2, 0.3, 0.5, 0.8, 1.2)]
    assert hits == sorted(hits, reverse=True) and hits[0] > 0.4
    # At fixed sigma, targets farther from the end are hit less often.
    for e, end in enumerate(ENDS):
        by_distance = sorted(range(20), key=lambda t: math.dist(end, HOLES[t]))
        for near, far in zip(by_distance, by_distance[1:]):
            if math.dist(end, HOLES[far]) - math.dist(end, HOLES[near]) > 1e-9:
                assert TABLE[e][near][0] >= TABLE[e][far][0] - 1e-15


def test_monte_carlo_agrees():
    rng = np.random.default_rng(2026)
    holes = np.array(HOLES, dtype=float)
    n = 400_000
    for e, t in [(0, HOLES.index((1, 0))), (3, HOLES.index((-2, -1))), (9, HOLES.index((0, 2)))]:
        points = np.array(ENDS[e]) + tm.DEFAULT_SIGMA * rng.standard_normal((n, 2))
        outside = (np.abs(points) > 3).any(axis=1)
        nearest = np.argmin(((points[:, None, :] - holes[None, :, :]) ** 2).sum(axis=2), axis=1)
        hit = np.linalg.norm(points - holes[t], axis=1) <= tm.DEFAULT_HIT_RADIUS
        counts = np.zeros(22)
        counts[0] = hit.sum()
        counts[21] = outside.sum()
        buried = ~hit & ~outside
        counts[1:21] = np.bincount(nearest[buried], minlength=20)
        for k in range(22):
            p = TABLE[e][t][k]
            assert abs(counts[k] / n - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-6, (e, t, k)


def test_bad_geometry_is_rejected():
    with pytest.raises(ValueError):
        tm.outcome_table(sigma=0)
    with pytest.raises(ValueError):
        tm.outcome_table(hit_radius=0.6)
    with pytest.raises(ValueError):
        tm.outcome_table(holes=((0, 0), (5, 0)))


def _both(sigma, holes, branches, half_box, hit_radius):
    holes = tuple((float(x), float(y)) for x, y in holes)
    reference = tm.outcome_table(sigma, holes, tuple(branches), half_box, hit_radius)
    native = _core._testing.purzelbaum_outcome_table(sigma, list(holes), list(branches), half_box, hit_radius)
    return reference, native


def _random_meadow(rng):
    """A random geometry the loader accepts: 2..20 holes on a jittered grid, 1..8 branches."""
    half_box = rng.uniform(2.0, 5.0)
    spots = [(x, y) for x in range(-4, 5) for y in range(-4, 5) if max(abs(x), abs(y)) * 0.9 < half_box - 0.3]
    chosen = rng.sample(spots, rng.randint(2, min(20, len(spots))))
    holes = [(x * 0.9 + rng.uniform(-0.1, 0.1), y * 0.9 + rng.uniform(-0.1, 0.1)) for x, y in chosen]
    branches = [rng.uniform(0.3, half_box) for _ in range(rng.randint(1, max(1, min(8, len(holes) // 2))))]
    closest = min(math.dist(p, q) for i, p in enumerate(holes) for q in holes[i + 1 :])
    return holes, branches, half_box, rng.uniform(0.05, 0.49) * closest


def test_the_game_s_model_and_the_reference_s_agree_on_many_parameter_sets():
    import random

    rng = random.Random(7)
    cases = [(s, HOLES, tm.DEFAULT_BRANCH_LENGTHS, 3.0, 0.35) for s in (0.005, 0.1, 0.5, 1.7, 10.0)]
    cases += [(rng.uniform(0.05, 3.0), *_random_meadow(rng)) for _ in range(40)]
    worst = 0.0
    for case in cases:
        reference, native = _both(*case)
        assert len(native) == len(reference) and all(len(a) == len(b) for a, b in zip(native, reference))
        for r_rows, n_rows in zip(reference, native):
            for r, n in zip(r_rows, n_rows):
                assert len(r) == len(n) and max(abs(a - b) for a, b in zip(r, n)) <= 1e-12, case
                # The outcomes a tumble lists are those of positive probability: the same ones.
                assert [a > 0 for a in r] == [b > 0 for b in n], case
                worst = max(worst, max(abs(a - b) for a, b in zip(r, n)))
    # Two computations, not one copied: the C++ model's own elementary functions against libm's.
    assert worst > 0


def test_the_game_uses_the_native_model():
    game = nutcore.load_game("purzelbaum", skill_sigma=[0.3, 0.9])
    state = game.new_initial_state()
    end_target = state.legal_actions()[0]
    state.apply_action(end_target)
    holes = [tuple(h) for h in game.params["holes"]]
    table = _core._testing.purzelbaum_outcome_table(0.3, holes, game.params["branch_lengths"], 3.0, 0.35)
    probabilities = [p for _, p in state.chance_outcomes()]  # seat 0's shove: sigma 0.3
    end, target = end_target % 16, end_target // 16  # a shove's id is 16 * target + end
    assert sorted(probabilities) == sorted(p for p in table[end][target] if p > 0)


def test_bad_geometry_is_refused_by_both_models():
    bad = [
        (0.5, [(0.0, 0.0)], [1.0], 3.0, 0.2),  # one hole
        (0.5, [(0.0, 0.0), (4.0, 0.0)], [1.0], 3.0, 0.2),  # outside the box
        (0.5, [(0.0, 0.0), (1.0, 0.0)], [1.0], 3.0, 0.6),  # the hit disks would overlap
        (0.0, HOLES, [1.3], 3.0, 0.35),  # no spread
    ]
    for args in bad:
        with pytest.raises(ValueError):
            tm.outcome_table(args[0], tuple(args[1]), tuple(args[2]), args[3], args[4])
        with pytest.raises(ValueError):
            _core._testing.purzelbaum_outcome_table(*args)
