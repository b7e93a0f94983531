"""compare: an exact structural diff, by JSON kind, with lists aligned as sequences."""

from __future__ import annotations

from csi_conformance.harness.judging.compare import MISSING, Difference, canonical, differences, render

BIG = 2**64


def test_integers_are_compared_exactly_past_two_to_the_53() -> None:
    assert differences({"lamports": BIG + 1}, {"lamports": BIG}) == [Difference("lamports", BIG + 1, BIG)]
    assert differences({"lamports": BIG + 1}, {"lamports": BIG + 1}) == []


def test_kinds_differ_even_where_python_says_equal() -> None:
    assert differences(1.0, 1) == [Difference("", 1.0, 1)]
    assert differences(True, 1) == [Difference("", True, 1)]
    assert differences(None, 0) == [Difference("", None, 0)]
    assert differences("1", 1) == [Difference("", "1", 1)]


def test_members_missing_on_either_side() -> None:
    found = differences({"a": 1, "extra": 2}, {"a": 1, "b": 3})
    assert found == [Difference("b", MISSING, 3), Difference("extra", 2, MISSING)]


def test_one_item_dropped_from_a_list_is_one_difference() -> None:
    reference = [{"hash": f"h{i}", "lamports": i} for i in range(8)]
    target = reference[:3] + reference[4:]
    assert differences({"items": target}, {"items": reference}) == [Difference("items[3]", MISSING, reference[3])]


def test_a_changed_item_is_compared_member_by_member() -> None:
    reference = [{"hash": "a", "lamports": 1}, {"hash": "b", "lamports": 2}]
    target = [{"hash": "a", "lamports": 1}, {"hash": "b", "lamports": 3}]
    assert differences(target, reference) == [Difference("[1].lamports", 3, 2)]


def test_an_extra_item_is_marked_as_the_targets() -> None:
    assert differences([1, 2, 9], [1, 2]) == [Difference("[+2]", 9, MISSING)]


def test_canonical_ignores_member_order_but_not_kinds() -> None:
    assert canonical({"a": 1, "b": [2, {"d": 3, "c": 4}]}) == canonical({"b": [2, {"c": 4, "d": 3}], "a": 1})
    assert canonical({"a": 1}) != canonical({"a": 1.0})
    assert str(BIG + 1) in canonical({"a": BIG + 1})


def test_render_puts_both_sides_on_one_line_and_caps_the_count() -> None:
    found = [Difference(f"result.value[{i}]", i, i + 1) for i in range(15)]
    lines = render(found, limit=12).splitlines()
    assert lines[0] == "result.value[0]: target 0 | reference 1"
    assert len(lines) == 13 and lines[-1] == "… and 3 more difference(s)"
    assert Difference("x", MISSING, "y").line() == 'x: target (absent) | reference "y"'
    assert len(Difference("x", "z" * 1000, 1).line(width=40)) < 100
