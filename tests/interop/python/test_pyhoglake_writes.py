"""pyhoglake's write path against hoglake serve: partitioned fan-out
appends (the README's months × teams layout, bucket and truncate, null
partition values), the incarnation guard, prepared appends, and the
reserved-name and identifier rules on both sides."""

from __future__ import annotations

import datetime as dt
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyhoglake import UNGUARDED, IncarnationChangedError, ValidationError, ops


def _catalog(lake, client, stem):
    name = lake.fresh_name(stem)
    return client.create_catalog(name, f"s3://pyhoglake/{name}/")


def _events(ns, name="events"):
    return ns.create_table(
        name,
        pa.schema(
            [
                pa.field("team_id", pa.int64(), nullable=False),
                pa.field("ts", pa.timestamp("us")),
                pa.field("payload", pa.string()),
            ]
        ),
    )


def test_months_by_team_fan_out_into_six_files_in_one_commit(lake, client):
    catalog = _catalog(lake, client, "part")
    ns = catalog.create_namespace("analytics")
    table = _events(ns)
    fid = {c.name: c.field_id for c in table.columns}
    table.alter(
        [
            ops.set_partition_spec(
                [
                    ops.partition_field(fid["team_id"], "identity"),
                    ops.partition_field(fid["ts"], "month"),
                ]
            )
        ]
    )
    rows = []
    for team in (101, 202):
        for month in (1, 2, 3):
            for day in (1, 15):
                rows.append((team, dt.datetime(2026, month, day, 12), f"{team}-{month}-{day}"))
    batch = pa.table(
        {
            "team_id": [r[0] for r in rows],
            "ts": pa.array([r[1] for r in rows], pa.timestamp("us")),
            "payload": [r[2] for r in rows],
        }
    )
    res = table.append(batch)
    assert len(res.files) == 6
    tuples = sorted(tuple(f.partition_values) for f in res.files)
    assert tuples == sorted(
        (str(team), str((2026 - 1970) * 12 + month - 1)) for team in (101, 202) for month in (1, 2, 3)
    )
    assert ("101", "672") in tuples  # the README's example: 2026-01 is 672
    assert all(f.record_count == 2 for f in res.files)
    # One commit: every file carries its snapshot; the server stored the tuples.
    files = ns.table("events").files()
    assert {f.begin_snapshot for f in files} == {res.snapshot_id}
    assert sorted(tuple(f.partition_values) for f in files) == tuples


def test_bucket_and_null_partition_values_and_truncate_refused(lake, client):
    catalog = _catalog(lake, client, "xform")
    ns = catalog.create_namespace("ns")
    table = ns.create_table(
        "t", pa.schema([pa.field("id", pa.int64()), pa.field("name", pa.string())])
    )
    fid = {c.name: c.field_id for c in table.columns}
    # The server's spec vocabulary is identity, bucket, year, month, day,
    # hour (as hoglake's): truncate is refused by name, nothing changes.
    with pytest.raises(ValidationError, match="truncate"):
        table.alter([ops.set_partition_spec([ops.partition_field(fid["name"], "truncate", 2)])])
    table.alter(
        [
            ops.set_partition_spec(
                [
                    ops.partition_field(fid["id"], "bucket", 4),
                    ops.partition_field(fid["name"], "identity"),
                ]
            )
        ]
    )
    res = table.append(pa.table({"id": [1, 2, 3, None], "name": ["alpha", "alps", None, "beta"]}))
    from pyhoglake import transforms

    stored = {tuple(f.partition_values) for f in ns.table("t").files()}
    assert stored == {tuple(f.partition_values) for f in res.files}
    assert sum(f.record_count for f in res.files) == 4
    # Bucket values are Iceberg's murmur3 buckets, computed client-side.
    for value in (1, 2, 3):
        assert any(v[0] == str(transforms.bucket("long", value, 4)) for v in stored)
    # A null source value is its own group, with a null partition value.
    assert (None, "beta") in stored
    assert any(v[1] is None for v in stored)


def test_incarnation_guard(lake, client):
    catalog = _catalog(lake, client, "guard")
    ns = catalog.create_namespace("ns")
    old = ns.create_table("t", pa.schema([pa.field("id", pa.int64())]))
    resolved = ns.table("t")  # resolve
    old.drop()  # … then drop and recreate under the same name
    fresh = ns.create_table("t", pa.schema([pa.field("id", pa.int64())]))
    assert fresh.table_uuid != resolved.table_uuid
    batch = pa.table({"id": [1, 2, 3]})
    with pytest.raises(IncarnationChangedError):
        resolved.append(batch)
    assert ns.table("t").files() == []  # zero rows in the new table
    with pytest.raises(IncarnationChangedError):  # a blind retry trips again
        resolved.append(batch)
    landed = resolved.append(batch, expected_table_uuid=UNGUARDED)
    (f,) = ns.table("t").files()
    assert f.record_count == 3 and f.begin_snapshot == landed.snapshot_id


def test_prepared_appends(lake, client):
    catalog = _catalog(lake, client, "prep")
    ns = catalog.create_namespace("ns")
    table = ns.create_table("t", pa.schema([pa.field("id", pa.int64()), pa.field("s", pa.string())]))
    ids = {c.name: c.field_id for c in table.columns}
    schema = pa.schema(
        [
            pa.field("id", pa.int64(), metadata={b"PARQUET:field_id": str(ids["id"]).encode()}),
            pa.field("s", pa.string(), metadata={b"PARQUET:field_id": str(ids["s"]).encode()}),
        ]
    )
    prepared = table.prepare_append_tables(
        [(pa.table({"id": [1, 2], "s": ["a", "b"]}, schema=schema), None)],
        idempotency_key=str(uuid.uuid4()),
    )
    result = table.commit_prepared(prepared)
    files = ns.table("t").files()
    assert [f.begin_snapshot for f in files] == [result.snapshot_id]
    assert files[0].record_count == 2
    # Replaying the same prepared payload returns the stored receipt.
    again = table.commit_prepared(prepared)
    assert again.snapshot_id == result.snapshot_id
    assert len(ns.table("t").files()) == 1


def test_prepared_append_of_files_written_elsewhere(lake, client, tmp_path):
    catalog = _catalog(lake, client, "prepf")
    ns = catalog.create_namespace("ns")
    table = ns.create_table("t", pa.schema([pa.field("id", pa.int64())]))
    fid = table.columns[0].field_id
    schema = pa.schema([pa.field("id", pa.int64(), metadata={b"PARQUET:field_id": str(fid).encode()})])
    local = tmp_path / "outside.parquet"
    pq.write_table(pa.table({"id": [5, 6, 7]}, schema=schema), local)
    prepared = table.prepare_append_files([(str(local), None)], idempotency_key=str(uuid.uuid4()))
    result = table.commit_prepared(prepared)
    (f,) = ns.table("t").files()
    assert f.record_count == 3 and f.begin_snapshot == result.snapshot_id
    assert f.path.startswith(catalog.data_path)


def test_reserved_names_and_identifiers(lake, client):
    catalog = _catalog(lake, client, "names")
    ns = catalog.create_namespace("ns")
    with pytest.raises((ValidationError, ValueError)):
        ns.create_table("t", pa.schema([pa.field("_hog_x", pa.int64())]))  # refused client-side
    with pytest.raises((ValidationError, ValueError)):
        ns.create_table("bad name", pa.schema([pa.field("id", pa.int64())]))
    table = ns.create_table("t", pa.schema([pa.field("id", pa.int64())]))
    with pytest.raises((ValidationError, ValueError)):
        table.alter([ops.add_column("_hog_y", pa.int64())])
    with pytest.raises((ValidationError, ValueError)):
        table.append(pa.table({"id": [1], "_hog_z": [2]}))
    assert [c.name for c in ns.table("t").columns] == ["id"]
