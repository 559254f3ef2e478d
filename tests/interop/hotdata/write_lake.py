"""Writes the workload's data set into a hoglake catalog through pyhoglake.

Runs in the pyhoglake venv (tests/interop/python/.venv), not in the
hotdata-ibis venvs: pyhoglake is pinned there. Reads the Parquet files that
dataset.py wrote (so both sides see byte-identical values), creates the
catalog at s3://BUCKET/CATALOG/ with namespace `tpch`, one table per file
with the file's Arrow schema, and appends each table in one commit.

    python write_lake.py --url URL --s3-endpoint URL --bucket B --catalog NAME PARQUET_DIR

S3 credentials are s3rver's (S3RVER/S3RVER), as in the other interop tests.
"""

from __future__ import annotations

import argparse
import os
import sys

import pyarrow.parquet as pq
from pyhoglake import HoglakeClient, S3Config

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dataset import SCHEMA_NAME, TABLES, parquet_path  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="hoglake serve base URL")
    parser.add_argument("--s3-endpoint", required=True)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("parquet_dir")
    args = parser.parse_args()

    # s3rver stores aws-chunked uploads undecoded (see ../python/conftest.py).
    os.environ.setdefault("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
    os.environ.setdefault("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required")
    client = HoglakeClient(
        args.url,
        s3=S3Config(access_key="S3RVER", secret_key="S3RVER",
                    endpoint_override=args.s3_endpoint, region="us-east-1"),
    )
    catalog = client.create_catalog(args.catalog, f"s3://{args.bucket}/{args.catalog}/")
    ns = catalog.create_namespace(SCHEMA_NAME)
    for name in TABLES:
        data = pq.read_table(parquet_path(args.parquet_dir, name))
        table = ns.create_table(name, data.schema)
        result = table.append(data, author="hotdata-workload", message=f"load {name}")
        print(f"{args.catalog}.{SCHEMA_NAME}.{name}: {data.num_rows} rows, "
              f"snapshot {result.snapshot_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
