"""Each ibis expression of cases.py over hoglake serve (hotdata-ibis) must
give the same result as ibis's DuckDB backend over the same Parquet data;
and the table schemas hotdata-ibis derives from information_schema must
match the Parquet files' types."""

from __future__ import annotations

import pytest

import dataset
from cases import CASES, ibis_subscripts_zero_based
from compare import assert_same_arrow_types, assert_same_result
from support import materialize


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_expression_matches_duckdb(case, reference, remote):
    build_expected = case.build
    if case.zero_based_answer is not None and ibis_subscripts_zero_based():
        build_expected = case.zero_based_answer
    expected = materialize(build_expected(reference), case.via)
    if remote is None:
        pytest.skip("--reference-only: DuckDB side ran")
    if case.refused is not None:
        with pytest.raises(Exception) as refused:
            materialize(case.build(remote.tables()), case.via)
        assert case.refused in str(refused.value)
        return
    actual = materialize(case.build(remote.tables()), case.via)
    if case.via == "pyarrow":
        assert_same_arrow_types(actual, expected)
    assert_same_result(actual, expected, ordered=case.ordered, rel_tol=case.rel_tol)


@pytest.mark.parametrize("table", dataset.TABLES)
def test_table_schema_matches_parquet(table, reference, remote):
    expected = getattr(reference, table).schema()
    if remote is None:
        pytest.skip("--reference-only")
    actual = getattr(remote.tables(), table).schema()
    # DuckDB reads every Parquet column as nullable; compare names and types.
    assert [(n, t.copy(nullable=True)) for n, t in actual.items()] == [
        (n, t.copy(nullable=True)) for n, t in expected.items()]
