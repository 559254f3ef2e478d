"""The hotdata-ibis workload's data set: three small TPC-H-shaped tables
(customer, orders, lineitem) generated deterministically with pyarrow.

Strings, int32/int64, booleans, dates, timestamps (with and without a time
zone), decimals, doubles and NULLs in most columns. The same tables are
written as Parquet files (`write_parquet`) for ibis's DuckDB backend, the
reference, and appended into a hoglake catalog by write_lake.py.

Depends on pyarrow only, so every venv (pyhoglake's and both hotdata-ibis
generations) can import it. Run directly to write the Parquet files:
    python dataset.py OUT_DIR
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sys
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq

SEED = 20240601
N_CUSTOMERS = 300
N_ORDERS = 1500
SCHEMA_NAME = "tpch"  # the namespace (hotdata "schema", ibis "database")
TABLES = ("customer", "orders", "lineitem")

SEGMENTS = ["AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"]
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
SHIPMODES = ["AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"]
WORDS = ["quick", "final", "Regular", "bold", "ironic", "pending", "special",
         "express", "careful", "silent", "Even", "blithe", "deposits", "foxes"]

CUSTOMER_SCHEMA = pa.schema([
    pa.field("c_custkey", pa.int64(), nullable=False),
    pa.field("c_name", pa.string(), nullable=False),
    pa.field("c_address", pa.string()),
    pa.field("c_nationkey", pa.int32()),
    pa.field("c_phone", pa.string()),
    pa.field("c_acctbal", pa.decimal128(15, 2)),
    pa.field("c_mktsegment", pa.string()),
    pa.field("c_comment", pa.string()),
    pa.field("c_active", pa.bool_()),
    pa.field("c_score", pa.float64()),
    pa.field("c_signup_ts", pa.timestamp("us")),
])

ORDERS_SCHEMA = pa.schema([
    pa.field("o_orderkey", pa.int64(), nullable=False),
    pa.field("o_custkey", pa.int64()),
    pa.field("o_orderstatus", pa.string()),
    pa.field("o_totalprice", pa.decimal128(15, 2)),
    pa.field("o_orderdate", pa.date32()),
    pa.field("o_orderpriority", pa.string()),
    pa.field("o_clerk", pa.string()),
    pa.field("o_shippriority", pa.int32()),
    pa.field("o_comment", pa.string()),
    pa.field("o_created_ts", pa.timestamp("us")),
    pa.field("o_updated_tstz", pa.timestamp("us", tz="UTC")),
    pa.field("o_discount_rate", pa.float64()),
])

LINEITEM_SCHEMA = pa.schema([
    pa.field("l_orderkey", pa.int64(), nullable=False),
    pa.field("l_linenumber", pa.int32(), nullable=False),
    pa.field("l_partkey", pa.int64()),
    pa.field("l_quantity", pa.decimal128(15, 2)),
    pa.field("l_extendedprice", pa.decimal128(15, 2)),
    pa.field("l_discount", pa.decimal128(15, 2)),
    pa.field("l_tax", pa.decimal128(15, 2)),
    pa.field("l_returnflag", pa.string()),
    pa.field("l_linestatus", pa.string()),
    pa.field("l_shipdate", pa.date32()),
    pa.field("l_commitdate", pa.date32()),
    pa.field("l_receiptdate", pa.date32()),
    pa.field("l_shipmode", pa.string()),
    pa.field("l_comment", pa.string()),
    pa.field("l_weight", pa.float64()),
    pa.field("l_shipped_ts", pa.timestamp("us")),
])


def _money(rng: random.Random, lo: int, hi: int) -> Decimal:
    return Decimal(rng.randint(lo * 100, hi * 100)) / 100


def _comment(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))


def _maybe(rng: random.Random, value, p_null: float):
    return None if rng.random() < p_null else value


def build_tables() -> dict[str, pa.Table]:
    """The three tables, identical on every call."""
    rng = random.Random(SEED)
    epoch = dt.datetime(1994, 1, 1)

    cust = {f.name: [] for f in CUSTOMER_SCHEMA}
    for key in range(1, N_CUSTOMERS + 1):
        cust["c_custkey"].append(key)
        cust["c_name"].append(f"Customer#{key:09d}")
        address = f"{rng.randint(1, 999)} {rng.choice(WORDS).title()} St"
        cust["c_address"].append(_maybe(rng, rng.choice(["", " ", "  "]) + address
                                         + rng.choice(["", " "]), 0.05))
        cust["c_nationkey"].append(_maybe(rng, rng.randint(0, 24), 0.05))
        cust["c_phone"].append(_maybe(rng, f"{rng.randint(10, 34)}-{rng.randint(100, 999)}-"
                                           f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}", 0.05))
        # Negative balances as in TPC-H.
        cust["c_acctbal"].append(_maybe(rng, _money(rng, -999, 9999), 0.08))
        cust["c_mktsegment"].append(_maybe(rng, rng.choice(SEGMENTS), 0.04))
        cust["c_comment"].append(_maybe(rng, _comment(rng), 0.1))
        cust["c_active"].append(_maybe(rng, rng.random() < 0.7, 0.05))
        cust["c_score"].append(_maybe(rng, round(rng.uniform(-50, 150), 3), 0.1))
        cust["c_signup_ts"].append(_maybe(rng, epoch + dt.timedelta(
            seconds=rng.randint(0, 4 * 365 * 86400), microseconds=rng.randint(0, 999999)), 0.05))

    orders = {f.name: [] for f in ORDERS_SCHEMA}
    for key in range(1, N_ORDERS + 1):
        okey = key * 4 - rng.randint(0, 3)  # sparse keys, like TPC-H
        orders["o_orderkey"].append(okey)
        # About 3% reference no customer (custkey beyond the table): left joins see NULLs.
        custkey = rng.randint(1, N_CUSTOMERS) if rng.random() > 0.03 else N_CUSTOMERS + rng.randint(1, 50)
        orders["o_custkey"].append(_maybe(rng, custkey, 0.02))
        orders["o_orderstatus"].append(rng.choice("FFOOP"))
        orders["o_totalprice"].append(_maybe(rng, _money(rng, 850, 450000), 0.03))
        day = dt.date(1992, 1, 1) + dt.timedelta(days=rng.randint(0, 6 * 365))
        orders["o_orderdate"].append(_maybe(rng, day, 0.02))
        orders["o_orderpriority"].append(_maybe(rng, rng.choice(PRIORITIES), 0.03))
        orders["o_clerk"].append(f"Clerk#{rng.randint(1, 50):09d}")
        orders["o_shippriority"].append(rng.choice([0, 0, 0, 1, 2]))
        orders["o_comment"].append(_maybe(rng, _comment(rng), 0.1))
        created = dt.datetime.combine(day, dt.time()) + dt.timedelta(
            seconds=rng.randint(0, 86399), microseconds=rng.randint(0, 999999))
        orders["o_created_ts"].append(_maybe(rng, created, 0.05))
        orders["o_updated_tstz"].append(_maybe(rng, (created + dt.timedelta(
            hours=rng.randint(1, 2000))).replace(tzinfo=dt.timezone.utc), 0.1))
        orders["o_discount_rate"].append(_maybe(rng, round(rng.uniform(0, 0.25), 4), 0.05))

    items = {f.name: [] for f in LINEITEM_SCHEMA}
    for okey, odate in zip(orders["o_orderkey"], orders["o_orderdate"]):
        base = odate or dt.date(1995, 6, 17)
        for line in range(1, rng.randint(1, 4) + 1):
            qty = Decimal(rng.randint(1, 50))
            price = _money(rng, 900, 2100)
            items["l_orderkey"].append(okey)
            items["l_linenumber"].append(line)
            items["l_partkey"].append(_maybe(rng, rng.randint(1, 2000), 0.02))
            items["l_quantity"].append(_maybe(rng, qty, 0.02))
            items["l_extendedprice"].append(_maybe(rng, qty * price, 0.02))
            items["l_discount"].append(Decimal(rng.randint(0, 10)) / 100)
            items["l_tax"].append(_maybe(rng, Decimal(rng.randint(0, 8)) / 100, 0.02))
            ship = base + dt.timedelta(days=rng.randint(1, 121))
            items["l_returnflag"].append("R" if rng.random() < 0.25 else rng.choice("AN"))
            items["l_linestatus"].append("O" if ship > dt.date(1995, 6, 17) else "F")
            items["l_shipdate"].append(ship)
            items["l_commitdate"].append(_maybe(rng, base + dt.timedelta(days=rng.randint(30, 90)), 0.03))
            items["l_receiptdate"].append(_maybe(rng, ship + dt.timedelta(days=rng.randint(1, 30)), 0.03))
            items["l_shipmode"].append(_maybe(rng, rng.choice(SHIPMODES), 0.03))
            items["l_comment"].append(_maybe(rng, _comment(rng), 0.1))
            items["l_weight"].append(_maybe(rng, round(rng.lognormvariate(2, 1), 6), 0.05))
            items["l_shipped_ts"].append(_maybe(rng, dt.datetime.combine(ship, dt.time(
                rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))), 0.04))

    return {
        "customer": pa.Table.from_pydict(cust, schema=CUSTOMER_SCHEMA),
        "orders": pa.Table.from_pydict(orders, schema=ORDERS_SCHEMA),
        "lineitem": pa.Table.from_pydict(items, schema=LINEITEM_SCHEMA),
    }


def parquet_path(directory: str, table: str) -> str:
    return os.path.join(directory, f"{table}.parquet")


def write_parquet(directory: str) -> dict[str, str]:
    """Writes each table as DIRECTORY/<table>.parquet; returns the paths."""
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for name, table in build_tables().items():
        paths[name] = parquet_path(directory, name)
        pq.write_table(table, paths[name])
    return paths


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dataset.py OUT_DIR")
    for name, path in write_parquet(sys.argv[1]).items():
        print(name, pq.read_metadata(path).num_rows, path)
