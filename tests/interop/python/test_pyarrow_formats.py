"""pyarrow, an independent Arrow and Parquet implementation, against ours.

Values are compared in hoglake's JSON row form without a second renderer:
what pyarrow decodes is handed back to us as an Arrow IPC stream (pyarrow's
writer; our IPC reader is itself checked against apache-arrow) and printed
by `hoglake arrow cat`, next to what our side wrote or read.

  1. Our Parquet writer's corpus (every column type, nested, nulls; each
     codec, dictionary on and off) read by pyarrow: the same rows, and our
     field ids in each field's metadata.
  2. Parquet written by pyarrow (its defaults, use_dictionary, data page v2,
     each codec) read by our reader: the rows pyarrow holds.
  3. Arrow IPC streams both ways.

Needs PARQUET_TOOL_BIN and HOGLAKE_BIN (set by CTest).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import pytest

CODECS = ["zstd", "snappy", "gzip", "lz4_raw", "brotli", "none"]


def _tool(*args: str) -> str:
    return subprocess.run(
        [os.environ["PARQUET_TOOL_BIN"], *args], check=True, capture_output=True, text=True
    ).stdout


def _hoglake(*args: str) -> str:
    return subprocess.run(
        [os.environ["HOGLAKE_BIN"], *args], check=True, capture_output=True, text=True
    ).stdout


def _rows_via_ipc(table: pa.Table, path: Path) -> list[str]:
    """`table`'s rows in hoglake's JSON row form, through an IPC stream."""
    with ipc.new_stream(path, table.schema) as writer:
        writer.write_table(table)
    return _hoglake("arrow", "cat", str(path)).splitlines()


def _field_ids(schema_json: dict) -> dict[str, str]:
    """name path -> PARQUET:field_id, over every level of a schema as
    `parquet_tool schema` / `hoglake arrow schema --json` print it."""
    out: dict[str, str] = {}

    def walk(fields, prefix):
        for f in fields:
            name = prefix + f["name"]
            fid = (f.get("metadata") or {}).get("PARQUET:field_id")
            if fid is not None:
                out[name] = fid
            walk(f.get("children", []), name + ".")

    walk(schema_json["fields"], "")
    return out


def _pyarrow_field_ids(schema: pa.Schema) -> dict[str, str]:
    out: dict[str, str] = {}

    def walk(field: pa.Field, name: str):
        if field.metadata and b"PARQUET:field_id" in field.metadata:
            out[name] = field.metadata[b"PARQUET:field_id"].decode()
        t = field.type
        if pa.types.is_struct(t):
            for i in range(t.num_fields):
                walk(t.field(i), name + "." + t.field(i).name)
        elif pa.types.is_list(t) or pa.types.is_large_list(t):
            walk(t.value_field, name + "." + t.value_field.name)
        elif pa.types.is_map(t):
            walk(t.key_field, name + ".entries.key")
            walk(t.item_field, name + ".entries.value")

    for f in schema:
        walk(f, f.name)
    return out


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("dictionary", ["dict", "plain"])
def test_pyarrow_reads_our_parquet(tmp_path, codec, dictionary):
    path = tmp_path / f"corpus-{codec}-{dictionary}.parquet"
    expected = _tool("corpus", str(path), codec, dictionary).splitlines()
    table = pq.read_table(path)
    assert _rows_via_ipc(table, tmp_path / "back.arrows") == expected
    ours = _field_ids(json.loads(_tool("schema", str(path))))
    theirs = _pyarrow_field_ids(table.schema)
    top_level = {k: v for k, v in ours.items() if "." not in k}
    assert {k: theirs.get(k) for k in top_level} == top_level
    assert len(theirs) >= len(top_level)


def _pyarrow_table() -> pa.Table:
    n = 300
    return pa.table(
        {
            "b": pa.array([i % 3 == 0 if i % 7 else None for i in range(n)]),
            "i32": pa.array([i * 7919 - 100000 if i % 5 else None for i in range(n)], pa.int32()),
            "i64": pa.array([(i * 2654435761) % (2**62) - 2**61 for i in range(n)], pa.int64()),
            "u16": pa.array([i * 211 % 65536 for i in range(n)], pa.uint16()),
            "f64": pa.array([i / 7 if i % 11 else None for i in range(n)], pa.float64()),
            "s": pa.array([f"v{i % 17}" if i % 13 else None for i in range(n)]),
            "bin": pa.array([bytes([i % 256, 7]) for i in range(n)], pa.binary()),
            "dec": pa.array([None if i % 9 == 0 else i * 1001 for i in range(n)], pa.decimal128(12, 3)),
            "d": pa.array([i * 37 for i in range(n)], pa.date32()),
            "ts": pa.array([i * 86_400_123_456 for i in range(n)], pa.timestamp("us", tz="UTC")),
            "l": pa.array([[i, None, i + 1] if i % 4 else None for i in range(n)], pa.list_(pa.int64())),
            "st": pa.array(
                [{"x": i, "y": f"y{i}"} if i % 6 else None for i in range(n)],
                pa.struct([("x", pa.int32()), ("y", pa.string())]),
            ),
            "m": pa.array(
                [[("k", i), ("j", None)] if i % 8 else None for i in range(n)],
                pa.map_(pa.string(), pa.int64()),
            ),
        }
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"use_dictionary": True},
        {"use_dictionary": False},
        {"data_page_version": "2.0"},
        {"compression": "snappy"},
        {"compression": "gzip"},
        {"compression": "zstd"},
        {"compression": "lz4"},
        {"compression": "brotli"},
        {"compression": "none"},
        {"row_group_size": 64, "data_page_version": "2.0", "use_dictionary": ["s"]},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults",
)
def test_we_read_pyarrows_parquet(tmp_path, options):
    table = _pyarrow_table()
    path = tmp_path / "pyarrow.parquet"
    pq.write_table(table, path, **options)
    expected = _rows_via_ipc(pq.read_table(path), tmp_path / "expected.arrows")
    assert _tool("cat", str(path)).splitlines() == expected


def test_arrow_ipc_streams_both_ways(tmp_path):
    # Ours → pyarrow: every column type of `hoglake arrow demo`.
    ours = tmp_path / "demo.arrows"
    _hoglake("arrow", "demo", str(ours))
    with ipc.open_stream(ours) as reader:
        table = reader.read_all()
    assert table.num_rows > 0
    assert _rows_via_ipc(table, tmp_path / "again.arrows") == _hoglake(
        "arrow", "cat", str(ours)
    ).splitlines()
    schema = json.loads(_hoglake("arrow", "schema", "--json", str(ours)))
    assert [f["name"] for f in schema["fields"]] == table.schema.names
    ids = _field_ids(schema)
    assert {k: v for k, v in _pyarrow_field_ids(table.schema).items() if k in ids} == {
        k: v for k, v in ids.items() if k in _pyarrow_field_ids(table.schema)
    }
    # pyarrow → ours: its table in several batches.
    theirs = _pyarrow_table()
    path = tmp_path / "pyarrow.arrows"
    with ipc.new_stream(path, theirs.schema) as writer:
        for batch in theirs.to_batches(max_chunksize=50):
            writer.write_batch(batch)
    rows = _hoglake("arrow", "cat", str(path)).splitlines()
    assert len(rows) == theirs.num_rows
    assert json.loads(rows[1])["s"] == "v1"
    assert json.loads(rows[3])["b"] is True and json.loads(rows[0])["b"] is None
