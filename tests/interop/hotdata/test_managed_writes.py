"""hotdata-ibis's managed-write flow against hoglake serve, in the form the
installed generation offers:

- hotdata-ibis 0.1.1: create_database(name) registers a `managed`
  connection (POST /v1/connections); tables are addressed (name, "public");
  uploads go through POST /v1/files.
- newer: create_database(name) creates a database (POST /v1/databases) and
  returns its id; tables are written as (id, "main") and read as
  ("default", "main"); uploads go through the presigned /v1/uploads flow.

Both: create_table from pandas and from pyarrow, query, refuse a second
create without overwrite, create_table(overwrite=True), a schema-only
table, drop_table, drop_database. Query results are compared with ibis's
DuckDB backend over the same data.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import ibis
import ibis.common.exceptions as com
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from compare import assert_same_result
from support import LEGACY_MANAGED, catalog_id, connect


def _events(n: int, offset: int = 0) -> pd.DataFrame:
    base = dt.datetime(2024, 1, 1)
    return pd.DataFrame({
        "event_id": pd.array([offset + i for i in range(n)], dtype="int64"),
        "user_id": pd.array([i % 7 for i in range(n)], dtype="int64"),
        "kind": [None if i % 11 == 0 else ["click", "view", "buy"][i % 3] for i in range(n)],
        "amount": [float("nan") if i % 13 == 0 else round(i * 1.25, 2) for i in range(n)],
        "at": pd.Series([base + dt.timedelta(minutes=17 * i) for i in range(n)],
                        dtype="datetime64[us]"),
        "flag": [i % 2 == 0 for i in range(n)],
    })


def _users() -> pa.Table:
    return pa.table({
        "user_id": pa.array(range(7), pa.int64()),
        "name": pa.array(["ann", "bob", None, "dan", "eve", "fay", "gus"]),
        "balance": pa.array([Decimal("10.50"), None, Decimal("-3.25"), Decimal("0.00"),
                             Decimal("999.99"), Decimal("1.01"), Decimal("42.00")],
                            pa.decimal128(10, 2)),
        "signup": pa.array([dt.date(2023, 1, 1) + dt.timedelta(days=40 * i) for i in range(7)],
                           pa.date32()),
    })


def _queries(events, users):
    """(name, expression) pairs run on both sides after each load."""
    j = events.join(users, events.user_id == users.user_id)
    return [
        ("events", events),
        ("users", users),
        ("by_kind", events.group_by("kind").agg(n=events.count(), total=events.amount.sum())),
        ("join", j.group_by(j.name).agg(n=j.count(), last=j.at.max())),
    ]


@pytest.fixture
def duck_local(duck, tmp_path):
    """Registers a pandas frame or Arrow table with the DuckDB reference via Parquet."""
    def register(name: str, data) -> ibis.Table:
        table = pa.Table.from_pandas(data, preserve_index=False) if isinstance(data, pd.DataFrame) else data
        path = tmp_path / f"{name}.parquet"
        pq.write_table(table, path)
        return duck.read_parquet(str(path), table_name=f"{name}_{uuid.uuid4().hex[:8]}")

    return register


def _check_same(hd_events, hd_users, ref_events, ref_users):
    for (name, actual), (_, expected) in zip(_queries(hd_events, hd_users),
                                             _queries(ref_events, ref_users)):
        try:
            assert_same_result(actual.execute(), expected.execute(), ordered=False)
        except AssertionError as err:
            raise AssertionError(f"query {name!r}: {err}") from None


def _quietly(fn, *args, **kwargs):
    """Cleanup that must not hide the failure being reported."""
    try:
        fn(*args, **kwargs)
    except Exception:  # noqa: BLE001
        pass


@pytest.fixture
def con(reference_only, duck_local):
    if reference_only:
        # The DuckDB side of the flow's queries, then no server.
        for _, expr in _queries(duck_local("events", _events(60)), duck_local("users", _users())):
            expr.execute()
        pytest.skip("--reference-only: DuckDB side ran")
    return connect()


@pytest.mark.skipif(not LEGACY_MANAGED, reason="hotdata-ibis 0.1.1's managed-connection flow")
def test_managed_connection_flow(con, duck_local):
    name = f"hdw{uuid.uuid4().hex[:10]}"
    loc = (name, "public")
    events, users = _events(60), _users()
    try:
        con.create_database(name, schema="public", tables=["events", "users", "staging"])
        cid = catalog_id(con, name)
        assert cid in con.list_catalogs()

        hd_events = con.create_table("events", events, database=loc)  # pandas
        hd_users = con.create_table("users", users, database=loc)  # pyarrow
        _check_same(hd_events, hd_users, duck_local("events", events), duck_local("users", users))
        assert set(con.list_tables(database=(cid, "public"))) >= {"events", "users"}

        with pytest.raises(com.IbisInputError, match="already exists"):
            con.create_table("events", events, database=loc)
        replacement = _events(25, offset=1000)
        hd_events = con.create_table("events", replacement, database=loc, overwrite=True)
        _check_same(hd_events, hd_users, duck_local("events2", replacement),
                    duck_local("users", users))

        staging = con.create_table("staging", schema=ibis.schema({"id": "int64", "ts": "timestamp"}),
                                   database=loc)
        assert staging.count().execute() == 0

        con.drop_table("users", database=loc)
        assert "users" not in con.list_tables(database=(cid, "public"))
        con.drop_database(name)
        assert cid not in con.list_catalogs()
    finally:
        _quietly(con.drop_database, name, force=True)


@pytest.mark.skipif(LEGACY_MANAGED, reason="the /v1/databases flow of hotdata-ibis >= 0.1.2")
def test_managed_database_flow(con, duck_local):
    events, users = _events(60), _users()
    db_id = con.create_database(f"hdw{uuid.uuid4().hex[:10]}", tables=["events", "users"])
    loc = (db_id, "main")
    try:
        assert isinstance(db_id, str) and db_id
        con.create_table("events", events, database=loc, overwrite=True)  # pandas
        con.create_table("users", users, database=loc)  # pyarrow, undeclared-in-advance style
        hd_events = con.table("events", database=("default", "main"))
        hd_users = con.table("users", database=("default", "main"))
        _check_same(hd_events, hd_users, duck_local("events", events), duck_local("users", users))

        with pytest.raises(com.IbisInputError, match="already exists"):
            con.create_table("events", events, database=loc)
        replacement = _events(25, offset=1000)
        con.create_table("events", replacement, database=loc, overwrite=True)
        hd_events = con.table("events", database=("default", "main"))
        _check_same(hd_events, hd_users, duck_local("events2", replacement),
                    duck_local("users", users))

        # A table nobody declared, schema only.
        staging = con.create_table("staging", schema=ibis.schema({"id": "int64", "ts": "timestamp"}),
                                   database=loc)
        assert staging.count().execute() == 0

        con.drop_table("users", database=loc)
        with pytest.raises(com.TableNotFound):
            con.table("users", database=("default", "main"))
        con.drop_database(db_id)
        with pytest.raises(com.IbisError, match="Unknown instant database"):
            con.drop_database(db_id)
    finally:
        _quietly(con.drop_database, db_id, force=True)
