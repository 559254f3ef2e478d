"""The hotdata-ibis README's examples (connect, catalog discovery, the
"Ibis tables -> pandas DataFrames" block, Arrow results, raw SQL) against
hoglake serve, with the workload's tables in place of TPC-H sf1. Results
are compared with ibis's DuckDB backend over the same Parquet files."""

from __future__ import annotations

import inspect
import os
from urllib.parse import quote, urlsplit

import ibis
import ibis_hotdata
import pyarrow as pa
import pytest

import dataset
from compare import assert_same_arrow_types, assert_same_result, rows_of
from support import catalog_id, connect

SCHEMA = dataset.SCHEMA_NAME
# Newer hotdata-ibis asks for inline results (async_after_ms, default 1000).
HAS_INLINE_QUERIES = "async_after_ms" in inspect.signature(
    ibis_hotdata.Backend.do_connect).parameters


@pytest.fixture
def hd(remote):
    if remote is None:
        pytest.skip("--reference-only")
    return remote


def test_connect_and_list_catalogs(hd):
    catalogs = hd.con.list_catalogs()
    assert hd.catalog in catalogs


def test_connect_by_url(hd):
    base = os.environ["HOGLAKE_API_URL"]
    host = urlsplit(base).netloc
    url = (f"hotdata://{host}/?token={quote(os.environ['HOGLAKE_API_TOKEN'], safe='')}"
           f"&workspace_id=hoglake&api_url={quote(base, safe='')}")
    con = ibis.connect(url)
    assert hd.catalog in con.list_catalogs()


def test_list_databases(hd):
    assert SCHEMA in hd.con.list_databases(catalog=hd.catalog)


def test_list_tables(hd):
    tables = hd.con.list_tables(database=(hd.catalog, SCHEMA))
    assert set(dataset.TABLES) <= set(tables)
    assert hd.con.list_tables(like="line.*", database=(hd.catalog, SCHEMA)) == ["lineitem"]


def test_default_connection_and_schema(hd, reference):
    con = connect(default_connection=hd.catalog, default_schema=SCHEMA)
    assert con.current_catalog == hd.catalog
    assert con.current_database == SCHEMA
    t = con.table("customer")  # README: "When con.table("mytable") is enough"
    assert_same_result(t.count().execute(), reference.customer.count().execute(), ordered=True)


def test_readme_filter_select_limit_execute(hd, reference):
    def build(t):
        return (t.filter(t.c_mktsegment == "AUTOMOBILE")
                .select("c_custkey", "c_name")
                .limit(100))

    # Fewer than 100 rows match, so the limit does not pick among them.
    expected = build(reference.customer).execute()
    assert len(expected) < 100
    assert_same_result(build(hd.tables().customer).execute(), expected, ordered=False)


def test_readme_group_by_agg(hd, reference):
    def build(t):
        return t.group_by(t.c_mktsegment).agg(n=t.count())

    assert_same_result(build(hd.tables().customer).execute(),
                       build(reference.customer).execute(), ordered=False)


def test_readme_join_limit(hd, reference):
    def build(ns):
        t, o = ns.customer, ns.orders
        return t.join(o, t.c_custkey == o.o_custkey).select(t.c_name, o.o_totalprice)

    actual = build(hd.tables()).limit(50).execute()
    assert len(actual) == 50
    # A limit without an order picks any 50 rows: each must be a row of the join.
    _, every = rows_of(build(reference).execute())
    _, picked = rows_of(actual)
    pool = list(every)
    for row in picked:
        assert row in pool, f"{row} is not a row of the join"
        pool.remove(row)


def test_readme_scalar_sum(hd, reference):
    actual = hd.tables().customer.c_acctbal.sum().execute()
    expected = reference.customer.c_acctbal.sum().execute()
    assert_same_result(actual, expected, ordered=True)


@pytest.mark.parametrize("table", dataset.TABLES)
def test_to_pyarrow_whole_table(hd, reference, table):
    actual = getattr(hd.tables(), table).to_pyarrow()
    expected = getattr(reference, table).to_pyarrow()
    assert isinstance(actual, pa.Table)
    assert_same_arrow_types(actual, expected)
    assert_same_result(actual, expected, ordered=False)


def test_to_pyarrow_batches(hd, reference):
    def build(ns):
        o = ns.orders
        return o.filter(o.o_orderstatus == "O").select("o_orderkey", "o_totalprice", "o_orderdate")

    reader = build(hd.tables()).to_pyarrow_batches(chunk_size=100)
    batches = list(reader)
    assert len(batches) > 1 and all(b.num_rows <= 100 for b in batches)
    actual = pa.Table.from_batches(batches, schema=reader.schema)
    expected = build(reference).to_pyarrow()
    assert_same_arrow_types(actual, expected)
    assert_same_result(actual, expected, ordered=False)


def test_con_sql_then_chain(hd, reference):
    sql = f'SELECT * FROM "{hd.catalog}"."{SCHEMA}"."orders"'
    base = hd.con.sql(sql, dialect="postgres")
    actual = (base.filter(base.o_orderstatus == "F")
              .group_by("o_orderpriority")
              .agg(n=base.count(), total=base.o_totalprice.sum())
              .execute())
    o = reference.orders
    expected = (o.filter(o.o_orderstatus == "F")
                .group_by("o_orderpriority")
                .agg(n=o.count(), total=o.o_totalprice.sum())
                .execute())
    assert_same_result(actual, expected, ordered=False)


def test_con_sql_execute_directly(hd, duck, reference):
    sql = (f'SELECT c_mktsegment, COUNT(*) AS n FROM "{hd.catalog}"."{SCHEMA}"."customer" '
           f"WHERE c_acctbal > 0 GROUP BY c_mktsegment")
    actual = hd.con.sql(sql, dialect="postgres").execute()
    expected = duck.sql("SELECT c_mktsegment, COUNT(*) AS n FROM customer "
                        "WHERE c_acctbal > 0 GROUP BY c_mktsegment").execute()
    assert_same_result(actual, expected, ordered=False)


@pytest.mark.skipif(not HAS_INLINE_QUERIES,
                    reason="this hotdata-ibis has no async_after_ms: every query is async already")
def test_always_async_path(hd, reference):
    """async_after_ms=None: POST /v1/query must answer 202, then poll the run and result."""
    con = connect(async_after_ms=None)
    t = con.table("orders", database=(catalog_id(con, hd.catalog_name), SCHEMA))
    assert_same_result(t.o_totalprice.sum().execute(),
                       reference.orders.o_totalprice.sum().execute(), ordered=True)
