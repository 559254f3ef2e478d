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


def need(remote):
    """The hoglake side; skips under --reference-only (after the DuckDB side ran)."""
    if remote is None:
        pytest.skip("--reference-only")
    return remote


def test_connect_and_list_catalogs(remote):
    hd = need(remote)
    catalogs = hd.con.list_catalogs()
    assert hd.catalog in catalogs


def test_connect_by_url(remote):
    hd = need(remote)
    base = os.environ["HOGLAKE_API_URL"]
    host = urlsplit(base).netloc
    url = (f"hotdata://{host}/?token={quote(os.environ['HOGLAKE_API_TOKEN'], safe='')}"
           f"&workspace_id=hoglake&api_url={quote(base, safe='')}")
    con = ibis.connect(url)
    assert hd.catalog in con.list_catalogs()


def test_list_databases(remote):
    hd = need(remote)
    assert SCHEMA in hd.con.list_databases(catalog=hd.catalog)


def test_list_tables(remote):
    hd = need(remote)
    tables = hd.con.list_tables(database=(hd.catalog, SCHEMA))
    assert set(dataset.TABLES) <= set(tables)
    assert hd.con.list_tables(like="line.*", database=(hd.catalog, SCHEMA)) == ["lineitem"]


def test_default_connection_and_schema(remote, reference):
    expected = reference.customer.count().execute()
    hd = need(remote)
    con = connect(default_connection=hd.catalog, default_schema=SCHEMA)
    assert con.current_catalog == hd.catalog
    assert con.current_database == SCHEMA
    t = con.table("customer")  # README: "When con.table("mytable") is enough"
    assert_same_result(t.count().execute(), expected, ordered=True)


def test_readme_filter_select_limit_execute(remote, reference):
    def build(t):
        return (t.filter(t.c_mktsegment == "AUTOMOBILE")
                .select("c_custkey", "c_name")
                .limit(100))

    # Fewer than 100 rows match, so the limit does not pick among them.
    expected = build(reference.customer).execute()
    assert len(expected) < 100
    hd = need(remote)
    assert_same_result(build(hd.tables().customer).execute(), expected, ordered=False)


def test_readme_group_by_agg(remote, reference):
    def build(t):
        return t.group_by(t.c_mktsegment).agg(n=t.count())

    expected = build(reference.customer).execute()
    hd = need(remote)
    assert_same_result(build(hd.tables().customer).execute(), expected, ordered=False)


def test_readme_join_limit(remote, reference):
    def build(ns):
        t, o = ns.customer, ns.orders
        return t.join(o, t.c_custkey == o.o_custkey).select(t.c_name, o.o_totalprice)

    _, every = rows_of(build(reference).execute())
    hd = need(remote)
    actual = build(hd.tables()).limit(50).execute()
    assert len(actual) == 50
    # A limit without an order picks any 50 rows: each must be a row of the join.
    _, picked = rows_of(actual)
    pool = list(every)
    for row in picked:
        assert row in pool, f"{row} is not a row of the join"
        pool.remove(row)


def test_readme_scalar_sum(remote, reference):
    expected = reference.customer.c_acctbal.sum().execute()
    actual = need(remote).tables().customer.c_acctbal.sum().execute()
    assert_same_result(actual, expected, ordered=True)


@pytest.mark.parametrize("table", dataset.TABLES)
def test_to_pyarrow_whole_table(remote, reference, table):
    expected = getattr(reference, table).to_pyarrow()
    actual = getattr(need(remote).tables(), table).to_pyarrow()
    assert isinstance(actual, pa.Table)
    assert_same_arrow_types(actual, expected)
    assert_same_result(actual, expected, ordered=False)


def test_to_pyarrow_batches(remote, reference):
    def build(ns):
        o = ns.orders
        return o.filter(o.o_orderstatus == "O").select("o_orderkey", "o_totalprice", "o_orderdate")

    expected = build(reference).to_pyarrow()
    reader = build(need(remote).tables()).to_pyarrow_batches(chunk_size=100)
    batches = list(reader)
    assert len(batches) > 1 and all(b.num_rows <= 100 for b in batches)
    actual = pa.Table.from_batches(batches, schema=reader.schema)
    assert_same_arrow_types(actual, expected)
    assert_same_result(actual, expected, ordered=False)


def test_con_sql_then_chain(remote, reference):
    def chain(base):
        return (base.filter(base.o_orderstatus == "F")
                .group_by("o_orderpriority")
                .agg(n=ibis._.count(), total=ibis._.o_totalprice.sum()))

    expected = chain(reference.orders).execute()
    hd = need(remote)
    base = hd.con.sql(f'SELECT * FROM "{hd.catalog}"."{SCHEMA}"."orders"', dialect="postgres")
    actual = chain(base).execute()
    assert_same_result(actual, expected, ordered=False)


def test_con_sql_execute_directly(remote, duck, reference):
    query = "SELECT c_mktsegment, COUNT(*) AS n FROM {} WHERE c_acctbal > 0 GROUP BY c_mktsegment"
    expected = duck.sql(query.format("customer")).execute()
    hd = need(remote)
    actual = hd.con.sql(query.format(f'"{hd.catalog}"."{SCHEMA}"."customer"'),
                        dialect="postgres").execute()
    assert_same_result(actual, expected, ordered=False)


@pytest.mark.skipif(not HAS_INLINE_QUERIES,
                    reason="this hotdata-ibis has no async_after_ms: every query is async already")
def test_always_async_path(remote, reference):
    """async_after_ms=None: POST /v1/query must answer 202, then poll the run and result."""
    expected = reference.orders.o_totalprice.sum().execute()
    hd = need(remote)
    con = connect(async_after_ms=None)
    t = con.table("orders", database=(catalog_id(con, hd.catalog_name), SCHEMA))
    assert_same_result(t.o_totalprice.sum().execute(), expected, ordered=True)
