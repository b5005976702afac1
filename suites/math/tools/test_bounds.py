"""Tests of the bounds table and its generator (pytest suites/math/tools)."""

from pathlib import Path

import pytest

import bounds
from cuconform.spec import MATH_BOUNDS, Place, SpecError, SpecFile, read

WHERE = Place(Path("bounds.toml"), 1, "t")


def table(**groups) -> SpecFile:
    """A bounds table of these groups, as spec.read gives it (no text: every entry on line 1)."""
    return SpecFile(Path("bounds.toml"), "", groups)


def test_the_table_generates_for_every_variant():
    spec = read(MATH_BOUNDS)
    for variant in bounds.VARIANTS:
        files = bounds.generate(spec, variant)
        assert set(files) == {f"{g}.inc" for g in bounds.GROUPS}
    default = bounds.generate(spec, "default")
    assert default["single.inc"].count("RULE_F(") == len(
        [e for e in spec.data["single"] if "default" in e.get("variants", ["default"])]
    )


def test_numbers_in_every_spelling():
    assert bounds.number("0x1p-126", WHERE) == 2.0**-126
    assert bounds.number("2^-21.41", WHERE) == 2.0**-21.41
    assert bounds.number("inf", WHERE) == float("inf")
    assert bounds.number(3, WHERE) == 3.0
    with pytest.raises(SpecError):
        bounds.number("three", WHERE)


def entry(**overrides):
    e = {
        "rule": "Expf",
        "function": "expf(x)",
        "documented": "2 (full range)",
        "source": "PG12.9 17.1 Table 18",
        "device": ["expf"],
        "ulp": 2,
    }
    e.update(overrides)
    return e


def test_a_plain_row_becomes_one_rule():
    text = bounds.generate(table(single=[entry()]), "default")["single.inc"]
    assert 'RULE_F(SinglePrecision, Expf, "PG12.9 17.1 Table 18"' in text
    assert "Metric::Ulp, 0x1.0000000000000p+1" in text
    assert "check_accuracy<fn::expf>(kBound, {});" in text


def test_pieces_conditions_and_rounding():
    e = entry(pieces=[{"arg": 1, "abs_in": ["0x1p-126", "0x1p126"], "ulp": 2}], rounding="rz")
    del e["ulp"]
    text = bounds.generate(table(intrinsic=[e]), "default")["intrinsic.inc"]
    assert "Condition::AbsIn, 1, 0x1.0000000000000p-126, 0x1.0000000000000p+126" in text
    assert "Rounding::TowardZero" in text


@pytest.mark.parametrize(
    "special, generated",
    [
        (True, "SpecialValues::Exact"),
        (False, "SpecialValues::Unchecked"),
        ("results", "SpecialValues::WhereResultIsSpecial"),
    ],
)
def test_special_values_modes(special, generated):
    text = bounds.generate(table(single=[entry(special_values=special)]), "default")["single.inc"]
    assert generated in text


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"special_values": 1}, "special_values"),
        ({"special_values": "always"}, "special_values"),
        ({"rule": "exp_f"}, "CamelCase"),
        ({"ulp": 1.5}, "non-negative integer"),
        ({"pieces": [{"ulp": 1}]}, "not both"),
        ({"variants": ["turbo"]}, "variants"),
        ({"colour": "red"}, "unknown key"),
        ({"device": "Exp"}, "function keys"),
    ],
)
def test_malformed_entries_are_refused(bad, message):
    with pytest.raises(SpecError, match=message):
        bounds.generate(table(single=[entry(**bad)]), "default")


def test_a_piece_has_exactly_one_metric():
    e = entry(pieces=[{"ulp": 1, "absolute": 2}])
    del e["ulp"]
    with pytest.raises(SpecError, match="exactly one"):
        bounds.generate(table(single=[e]), "default")


def test_a_variant_holds_only_its_rows():
    files = bounds.generate(table(division=[entry(variants=["prec_div"])]), "default")
    assert "RULE_F" not in files["division.inc"]


def test_vector_and_quad_rows_call_their_own_checkers():
    default = bounds.generate(read(MATH_BOUNDS), "default")
    assert default["vector.inc"].count("check_vector_norm<fn::") == 4
    assert default["quad.inc"].count("check_quad<fn::") == 44  # every row of Table 20
    assert "check_quad<fn::q_frexp_mantissa, fn::q_frexp_exponent>" in default["quad.inc"]
    two = {k: v for k, v in entry(rule="Normf", device=["normf", "rnormf"], measured="no bound").items() if k != "ulp"}
    with pytest.raises(SpecError, match="exactly one device function"):
        bounds.generate(table(vector=[two]), "default")
