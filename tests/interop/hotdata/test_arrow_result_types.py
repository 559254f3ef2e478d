"""Interval columns of an Arrow result, read by pyarrow.

GET /v1/results/{id} as an Arrow IPC stream gives intervals as
interval[month_day_nano], top level and as list elements, with the value
DuckDB's Arrow export gives for the same interval literal.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request

import pyarrow as pa
import pyarrow.ipc as ipc
import pytest

from support import _env

INTERVAL = "1 year 2 months 3 days 04:05:06.789012"


def _call(method: str, path: str, body: dict | None = None,
          accept: str = "application/json") -> tuple[int, bytes]:
    request = urllib.request.Request(
        _env("HOGLAKE_API_URL").rstrip("/") + "/v1" + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {_env('HOGLAKE_API_TOKEN')}",
                 "X-Workspace-Id": os.environ.get("HOGLAKE_API_WORKSPACE") or "hoglake",
                 "Content-Type": "application/json", "Accept": accept})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, response.read()


def _arrow_result(sql: str) -> pa.Table:
    status, body = _call("POST", "/query", {"sql": sql})
    assert status == 200, body
    result_id = json.loads(body)["result_id"]
    for _ in range(600):
        status, body = _call("GET", f"/results/{result_id}",
                             accept="application/vnd.apache.arrow.stream")
        if status == 200:
            return ipc.open_stream(body).read_all()
        time.sleep(0.05)
    raise AssertionError(f"result {result_id} never became ready")


def test_interval_columns(remote, duck):
    if remote is None:
        pytest.skip("needs the server")
    table = _arrow_result(
        f"SELECT interval '{INTERVAL}' AS iv, ARRAY[interval '-90 minutes', NULL] AS ivs, "
        "CAST(NULL AS interval) AS none")
    assert table.schema.field("iv").type == pa.month_day_nano_interval()
    assert table.schema.field("ivs").type.value_type == pa.month_day_nano_interval()
    row = table.to_pylist()[0]
    expected = duck.raw_sql(f"SELECT INTERVAL '{INTERVAL}' AS iv").fetch_arrow_table()
    assert expected.schema.field("iv").type == pa.month_day_nano_interval()
    assert row["iv"] == expected.column("iv")[0].as_py()
    assert (row["iv"].months, row["iv"].days, row["iv"].nanoseconds) == (14, 3, 14706789012000)
    assert [(v.months, v.days, v.nanoseconds) if v else None for v in row["ivs"]] == [
        (0, 0, -5400000000000), None]
    assert row["none"] is None
