"""Fixtures for running the real Python clients against a real server.

One s3rver (npm, the pinned one the C++ tests use) on a loopback port and one
`hoglake serve` (embedded PostgreSQL in a temporary directory) per test
session, with the server allowed to keep catalogs in the S3 bucket and in a
local directory. Tests talk to them only through the client libraries.

Environment (set by CTest): HOGLAKE_BIN, NODE_EXECUTABLE, S3RVER_SCRIPT.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass

import pytest

BUCKET = "pyhoglake"

# pyarrow's AWS SDK sends uploads aws-chunked with a trailing checksum by
# default, which s3rver stores undecoded (the object then starts "248\r\n");
# checksums only where an operation requires one keeps payloads plain.
os.environ.setdefault("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
os.environ.setdefault("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required")


@dataclass
class Lake:
    url: str  # the server's base URL
    s3_endpoint: str  # http://127.0.0.1:<port>
    local_root: str  # a directory file:// catalogs may use
    server: subprocess.Popen

    def s3_config(self):
        from pyhoglake import S3Config

        return S3Config(
            access_key="S3RVER",
            secret_key="S3RVER",
            endpoint_override=self.s3_endpoint,
            region="us-east-1",
        )

    def client(self):
        from pyhoglake import HoglakeClient

        return HoglakeClient(self.url, s3=self.s3_config())

    def fresh_name(self, stem: str) -> str:
        return f"{stem}{uuid.uuid4().hex[:10]}"


def _need(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} must be set (CTest sets it)")
    return value


@pytest.fixture(scope="session")
def lake():
    hoglake = _need("HOGLAKE_BIN")
    node = _need("NODE_EXECUTABLE")
    s3rver_script = _need("S3RVER_SCRIPT")
    top = tempfile.mkdtemp(prefix="hoglake-py-")
    os.chmod(top, 0o755)  # the embedded PostgreSQL runs as another user
    local_root = os.path.join(top, "local")
    os.makedirs(local_root)

    s3rver = subprocess.Popen(
        [node, s3rver_script, os.path.join(top, "s3"), BUCKET],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = s3rver.stdout.readline().split()
    assert line[:1] == ["PORT"], f"s3rver did not start: {line}"
    s3_endpoint = f"http://127.0.0.1:{line[1]}"

    ready = os.path.join(top, "ready")
    log = open(os.path.join(top, "server.log"), "w")
    env = dict(
        os.environ,
        HOGLAKE_EXPIRY_INTERVAL_MS="0",
        HOGLAKE_ALLOWED_DATA_PATHS=f"s3://{BUCKET}/ file://{local_root}/",
        AWS_ENDPOINT_URL_S3=s3_endpoint,
        AWS_ACCESS_KEY_ID="S3RVER",
        AWS_SECRET_ACCESS_KEY="S3RVER",
        AWS_REGION="us-east-1",
    )
    server = subprocess.Popen(
        [hoglake, "serve", "--data-dir", os.path.join(top, "data"), "--listen",
         "127.0.0.1:0", "--ready-file", ready],
        env=env,
        stderr=log,
    )
    deadline = time.monotonic() + 90
    while not os.path.exists(ready):
        if server.poll() is not None or time.monotonic() > deadline:
            log.flush()
            pytest.fail("hoglake serve did not start:\n" + open(log.name).read())
        time.sleep(0.05)
    url = open(ready).read().strip()
    try:
        yield Lake(url=url, s3_endpoint=s3_endpoint, local_root=local_root, server=server)
    finally:
        server.terminate()
        server.wait(timeout=60)
        s3rver.stdin.close()
        s3rver.wait(timeout=30)
        log.close()
        shutil.rmtree(top, ignore_errors=True)


@pytest.fixture
def client(lake):
    return lake.client()
