"""The pyhoglake README's quickstart and "More surface" blocks, as written
(only the URL, the S3 settings and the names changed), against hoglake
serve with the embedded PostgreSQL and an S3 server on loopback; and the
same append path over a file:// catalog."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.fs
import pyarrow.parquet as pq
import pytest
from pyhoglake import ops


def _events_schema():
    return pa.schema(
        [
            pa.field("id", pa.int64(), nullable=False),
            pa.field("name", pa.string()),
            pa.field("amount", pa.decimal128(10, 2)),
        ]
    )


def test_quickstart_append_path_end_to_end(lake, client):
    name = lake.fresh_name("demo")
    catalog = client.create_catalog(name, f"s3://pyhoglake/{name}/")
    ns = catalog.create_namespace("analytics")
    table = ns.create_table("events", _events_schema())

    result = table.append(
        pa.table({"id": [1, 2], "name": ["a", None], "amount": [None, None]}),
        author="me",
        message="first batch",
    )
    assert result.snapshot_id > 0

    # The README's loop, as written: this handle's reads pin to its own
    # create snapshot (pyhoglake #35), where the table is still empty.
    for f in table.files():
        print(f.path, f.record_count, f.stats_state, f.row_id_start)
    assert list(table.files()) == []
    # A fresh handle reads head.
    files = list(ns.table("events").files())
    assert len(files) == 1
    f = files[0]
    assert f.path.startswith(f"s3://pyhoglake/{name}/data/analytics/events/")
    assert f.path.endswith(".parquet")
    assert f.record_count == 2
    assert f.stats_state == "provided"
    assert f.row_id_start == 0

    plan = table.changes(from_snapshot=0)
    assert plan.to_snapshot == result.snapshot_id
    catalog.commit_offset("my-consumer", table.table_uuid, plan.to_snapshot)
    assert catalog.offset("my-consumer", table.table_uuid).committed_snapshot == plan.to_snapshot
    assert catalog.offset("nobody", table.table_uuid) is None


def test_more_surface(lake, client):
    name = lake.fresh_name("more")
    catalog = client.create_catalog(name, f"s3://pyhoglake/{name}/")
    ns = catalog.create_namespace("analytics")
    table = ns.create_table("events", _events_schema())
    first = table.append(pa.table({"id": [1, 2], "name": ["a", "b"], "amount": [None, None]}))
    before_alter = dt.datetime.now(dt.timezone.utc)

    table.alter([ops.add_column("score", pa.float64())])  # schema evolution
    assert "score" in [c.name for c in table.info().columns]
    old = table.info(snapshot=first.snapshot_id)  # time travel
    assert "score" not in [c.name for c in old.columns]
    assert len(table.files(at_timestamp=before_alter)) == 1  # by timestamp

    big = pa.table(
        {
            "id": list(range(100)),
            "name": [f"n{i}" for i in range(100)],
            "amount": [None] * 100,
            "score": [float(i) for i in range(100)],
        }
    )
    deferred = table.append(big, deferred_stats=True)  # register as pending
    states = sorted(f.stats_state for f in table.files(snapshot=deferred.snapshot_id))
    assert states == ["pending", "provided"]
    assert deferred.snapshot_id > first.snapshot_id

    catalog.set_retention(7 * 86400, consumer_floor=True)  # retention policy
    catalog.expire()
    catalog.cleanup()  # maintenance sweeps
    ns.create_view("v", "SELECT 1", dialect="trino")
    assert "v" in [v.name for v in ns.list_views()]

    every = list(catalog.snapshots(limit=1000))  # auto-paginated
    ids = [s.snapshot_id for s in every]
    assert ids == sorted(ids) and len(ids) >= 5
    head = ids[-1]
    descending = [s.snapshot_id for s in catalog.snapshots(before=head + 1)]
    # Ascending pages start after snapshot 0 (the catalog's creation);
    # a descending walk reaches it.
    assert descending == sorted(ids, reverse=True) + [0]


def test_what_pyhoglake_writes_reads_back_with_field_ids(lake, client):
    name = lake.fresh_name("ids")
    catalog = client.create_catalog(name, f"s3://pyhoglake/{name}/")
    table = catalog.create_namespace("ns").create_table("t", _events_schema())
    table.append(pa.table({"id": [7], "name": ["x"], "amount": [None]}))
    (f,) = table.files(snapshot=table.info().read_snapshot_id)
    fs = pa.fs.S3FileSystem(
        access_key="S3RVER", secret_key="S3RVER", endpoint_override=lake.s3_endpoint,
        region="us-east-1", scheme="http",
    )
    data = pq.read_table(f.path[len("s3://"):], filesystem=fs)
    assert data.column("id").to_pylist() == [7]
    ids = {c.name: c.field_id for c in table.columns}
    for field in data.schema:
        assert int(field.metadata[b"PARQUET:field_id"]) == ids[field.name]


def test_file_catalogs(lake, client):
    """pyhoglake's write path supports s3:// only: a file:// catalog (our
    extension) is created, described and evolved through it, and its append
    is refused by pyhoglake itself, before any request, naming the scheme
    (docs/compatibility.md)."""
    from pyhoglake.errors import HoglakeError

    name = lake.fresh_name("local")
    path = f"file://{lake.local_root}/{name}/"
    catalog = client.create_catalog(name, path)
    assert catalog.data_path == path
    table = catalog.create_namespace("ns").create_table("t", _events_schema())
    table.alter([ops.add_column("score", pa.float64())])
    assert [c.name for c in table.info().columns] == ["id", "name", "amount", "score"]
    with pytest.raises(HoglakeError, match="only s3:// is supported"):
        table.append(pa.table({"id": [1], "name": ["a"], "amount": [None], "score": [1.0]}))
    assert catalog.namespace("ns").table("t").files() == []
