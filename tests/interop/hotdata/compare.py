"""Turns ibis results (pandas frames and series, scalars, Arrow tables) into
lists of plain Python tuples and compares two of them.

Cells become None (NULL, NaN, NaT), int, float, Decimal, str, bool, date,
datetime or timedelta. Floats are compared with a relative tolerance;
Decimals exactly (Decimal("1.50") == Decimal("1.5")); a float against a
Decimal as floats, because engines may legitimately widen an average of
decimals to double. Unordered results are sorted by a key that treats all
numbers alike, so both sides sort the same way.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

import pyarrow as pa


def _cell(value: Any) -> Any:
    if value is None:
        return None
    # numpy and pandas scalars without importing either here.
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        value = value.item()
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "to_pydatetime") and not isinstance(value, dt.datetime):
        return value.to_pydatetime()  # pandas.Timestamp
    if isinstance(value, dt.datetime) and hasattr(value, "to_pydatetime"):
        return value.to_pydatetime()
    if hasattr(value, "to_pytimedelta"):
        return value.to_pytimedelta()
    # An Arrow month_day_nano interval: pyarrow's MonthDayNano, or the
    # pandas DateOffset that to_pandas makes of it.
    if type(value).__name__ == "MonthDayNano":
        return (value.months, value.days, value.nanoseconds)
    if type(value).__name__ == "DateOffset" and hasattr(value, "kwds"):
        return tuple(value.n * value.kwds.get(k, 0) for k in ("months", "days", "nanoseconds"))
    return value


def rows_of(result: Any) -> tuple[list[str], list[tuple]]:
    """Column names and rows of any ibis execution result."""
    if isinstance(result, pa.Table):
        return result.column_names, [tuple(_cell(v) for v in row.values())
                                     for row in result.to_pylist()]
    if isinstance(result, pa.Scalar):
        return ["value"], [(_cell(result.as_py()),)]
    if hasattr(result, "to_frame") and hasattr(result, "name"):  # pandas.Series
        result = result.to_frame()
    if hasattr(result, "itertuples"):  # pandas.DataFrame
        return [str(c) for c in result.columns], [
            tuple(_cell(v) for v in row) for row in result.itertuples(index=False, name=None)]
    return ["value"], [(_cell(result),)]


def _sort_key(row: tuple) -> tuple:
    key = []
    for v in row:
        if v is None:
            key.append((0,))
        elif isinstance(v, bool):
            key.append((1, int(v)))
        elif isinstance(v, (int, float, Decimal)):
            f = float(v)
            key.append((2, float(f"{f:.9g}")))
        elif isinstance(v, (dt.datetime, dt.date)):
            key.append((3, v.isoformat()))
        else:
            key.append((4, str(v)))
    return tuple(key)


def _same(a: Any, b: Any, rel_tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float, Decimal)) or not isinstance(b, (int, float, Decimal)):
            return False
        return math.isclose(float(a), float(b), rel_tol=rel_tol, abs_tol=1e-9)
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        return isinstance(a, (int, Decimal)) and isinstance(b, (int, Decimal)) and a == b
    if isinstance(a, dt.datetime) or isinstance(b, dt.datetime):
        return (isinstance(a, dt.datetime) and isinstance(b, dt.datetime)
                and (a.tzinfo is None) == (b.tzinfo is None) and a == b)
    return a == b


def assert_same_result(actual: Any, expected: Any, *, ordered: bool, rel_tol: float = 1e-9) -> None:
    """Raises AssertionError naming the first difference."""
    a_cols, a_rows = rows_of(actual)
    e_cols, e_rows = rows_of(expected)
    assert a_cols == e_cols, f"columns differ: hoglake {a_cols} vs duckdb {e_cols}"
    assert len(a_rows) == len(e_rows), (
        f"row counts differ: hoglake {len(a_rows)} vs duckdb {len(e_rows)}")
    if not ordered:
        a_rows = sorted(a_rows, key=_sort_key)
        e_rows = sorted(e_rows, key=_sort_key)
    for i, (a, e) in enumerate(zip(a_rows, e_rows)):
        for col, av, ev in zip(a_cols, a, e):
            assert _same(av, ev, rel_tol), (
                f"row {i} column {col!r}: hoglake {av!r} vs duckdb {ev!r}\n"
                f"  hoglake row {a}\n  duckdb  row {e}")


def assert_same_arrow_types(actual: pa.Table, expected: pa.Table) -> None:
    """Field by field, ignoring nullability (DuckDB reports every column nullable)."""
    a = [(f.name, f.type) for f in actual.schema]
    e = [(f.name, f.type) for f in expected.schema]
    assert a == e, f"Arrow types differ:\n  hoglake {a}\n  duckdb  {e}"
