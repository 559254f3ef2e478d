#!/usr/bin/env python3
"""Runs the hotdata-ibis workload against a real `hoglake serve`.

Starts s3rver (npm, as the other interop tests do) and `hoglake serve` on a
free loopback port with a temporary data directory, writes the data set
(dataset.py's Parquet files, appended into catalog `hotdata_tpch` through
pyhoglake in the pyhoglake venv), then runs pytest in each hotdata-ibis
generation's venv (.venv-gen01, .venv-newest; scripts/lib.sh
install_hotdata_clients builds them) and stops everything. Exit status 0
only when every generation passed.

    run_workload.py [--generation gen01|newest] [-- PYTEST ARGS...]

Environment:
    HOGLAKE_BIN        the hoglake binary (required)
    NODE_EXECUTABLE    node (default: from PATH)
    S3RVER_SCRIPT      tests/storage_integration/start_s3rver.mjs of a checkout
                       whose tests/interop/node_modules is installed (default: this one's)
    PYHOGLAKE_PYTHON   python of the venv with pyhoglake
                       (default: tests/interop/python/.venv/bin/python)
    HOGLAKE_API_TOKEN  the bearer token to configure and use (default: an opaque
                       token, so SDKs that exchange tokens for JWTs do so)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
GENERATIONS = ("gen01", "newest")
BUCKET = "hotdata"
CATALOG = "hotdata_tpch"
DEFAULT_TOKEN = "hl-hotdata-workload-token"

# s3rver stores aws-chunked uploads undecoded (see ../python/conftest.py).
PLAIN_S3 = {"AWS_REQUEST_CHECKSUM_CALCULATION": "when_required",
            "AWS_RESPONSE_CHECKSUM_VALIDATION": "when_required"}


def _log(msg: str) -> None:
    print(f"==> {msg}", file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the hotdata-ibis workload.")
    parser.add_argument("--generation", choices=GENERATIONS, action="append",
                        help="run only this generation (repeatable; default: all)")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args()
    generations = args.generation or list(GENERATIONS)

    hoglake = os.environ.get("HOGLAKE_BIN")
    if not hoglake:
        print("HOGLAKE_BIN must be set", file=sys.stderr)
        return 2
    node = os.environ.get("NODE_EXECUTABLE") or shutil.which("node")
    s3rver_script = os.environ.get("S3RVER_SCRIPT") or str(
        ROOT / "tests" / "storage_integration" / "start_s3rver.mjs")
    pyhoglake_python = os.environ.get("PYHOGLAKE_PYTHON") or str(
        ROOT / "tests" / "interop" / "python" / ".venv" / "bin" / "python")
    token = os.environ.get("HOGLAKE_API_TOKEN") or DEFAULT_TOKEN
    for gen in generations:
        if not (HERE / f".venv-{gen}" / "bin" / "python").exists():
            print(f"{HERE}/.venv-{gen} is missing: run scripts/lib.sh's install_hotdata_clients",
                  file=sys.stderr)
            return 2

    top = tempfile.mkdtemp(prefix="hoglake-hotdata-")
    os.chmod(top, 0o755)  # the embedded PostgreSQL runs as another user
    log_path = os.path.join(top, "server.log")
    s3rver = server = None
    try:
        s3rver = subprocess.Popen([node, s3rver_script, os.path.join(top, "s3"), BUCKET],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = s3rver.stdout.readline().split()
        if line[:1] != ["PORT"]:
            print(f"s3rver did not start: {line}", file=sys.stderr)
            return 1
        s3_endpoint = f"http://127.0.0.1:{line[1]}"

        ready = os.path.join(top, "ready")
        server_env = dict(
            os.environ, **PLAIN_S3,
            HOGLAKE_API_TOKENS=token,
            HOGLAKE_EXPIRY_INTERVAL_MS="0",
            HOGLAKE_ALLOWED_DATA_PATHS=f"s3://{BUCKET}/",
            AWS_ENDPOINT_URL_S3=s3_endpoint, AWS_ACCESS_KEY_ID="S3RVER",
            AWS_SECRET_ACCESS_KEY="S3RVER", AWS_REGION="us-east-1",
        )
        with open(log_path, "w") as log:
            server = subprocess.Popen(
                [hoglake, "serve", "--data-dir", os.path.join(top, "data"),
                 "--listen", "127.0.0.1:0", "--ready-file", ready],
                env=server_env, stderr=log)
        deadline = time.monotonic() + 90
        while not os.path.exists(ready) or not open(ready).read().strip():
            if server.poll() is not None or time.monotonic() > deadline:
                print("hoglake serve did not start:\n" + open(log_path).read(), file=sys.stderr)
                return 1
            time.sleep(0.05)
        url = open(ready).read().strip()
        _log(f"hoglake serve at {url}, s3rver at {s3_endpoint}")

        parquet_dir = os.path.join(top, "parquet")
        subprocess.run([pyhoglake_python, str(HERE / "dataset.py"), parquet_dir], check=True)
        subprocess.run([pyhoglake_python, str(HERE / "write_lake.py"), "--url", url,
                        "--s3-endpoint", s3_endpoint, "--bucket", BUCKET, "--catalog", CATALOG,
                        parquet_dir], check=True, env=dict(os.environ, **PLAIN_S3))

        test_env = dict(os.environ, HOGLAKE_API_URL=url, HOGLAKE_API_TOKEN=token,
                        HOGLAKE_API_WORKSPACE="hoglake", HOGLAKE_HOTDATA_CATALOG=CATALOG,
                        HOGLAKE_HOTDATA_PARQUET=parquet_dir)
        failed = []
        for gen in generations:
            _log(f"pytest in .venv-{gen}")
            result = subprocess.run(
                [str(HERE / f".venv-{gen}" / "bin" / "python"), "-m", "pytest", "-p",
                 "no:cacheprovider", "-rfE", str(HERE), *args.pytest_args],
                cwd=HERE, env=test_env)
            if result.returncode != 0:
                failed.append(gen)
        if failed:
            print(f"failed generations: {', '.join(failed)}\nserver log (tail):\n"
                  + open(log_path).read()[-8000:], file=sys.stderr)
            return 1
        return 0
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
        if s3rver is not None:
            s3rver.stdin.close()
            s3rver.wait(timeout=30)
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
