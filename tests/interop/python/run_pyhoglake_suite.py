"""Runs pyhoglake's own integration tests, unmodified, against hoglake serve.

pyhoglake's source distribution (pyhoglake-src.lock, unpacked by
scripts/lib.sh) ships tests/test_integration.py and
tests/qe_live_adversarial.py, which need a live server (HOGLAKE_URL) and S3
(HOGLAKE_S3_ENDPOINT, _ACCESS_KEY, _SECRET_KEY). This starts s3rver with
the buckets they use and `hoglake serve` with the hydrator on a short
cadence (as their live runner does), then runs both files with pytest. The
tests listed in KNOWN_DIFFERENCES are deselected; each is written down in
docs/compatibility.md with its reason. Exit status is pytest's.

Environment (set by CTest): HOGLAKE_BIN, NODE_EXECUTABLE, S3RVER_SCRIPT.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / ".venv" / "pyhoglake-src"
BUCKETS = ["pyhog-itest", "qe-itest"]

# test id -> why it is not run (docs/compatibility.md says more).
KNOWN_DIFFERENCES = {
    "tests/qe_live_adversarial.py::test_duplicate_paths_accepted_within_and_across_commits":
        "hoglake in C++ registers a path once (409/422), so readers never read a file twice",
    "tests/qe_live_adversarial.py::test_delete_count_bounds_and_read_snapshot_requirement":
        "deletion vectors are not implemented yet (501)",
    "tests/test_integration.py::test_partitioned_compaction_groups_within_partition":
        "maintenance compact is not implemented yet (501)",
}


def main() -> int:
    for name in ("HOGLAKE_BIN", "NODE_EXECUTABLE", "S3RVER_SCRIPT"):
        if not os.environ.get(name):
            print(f"{name} must be set (CTest sets it)", file=sys.stderr)
            return 2
    if not (SOURCE / "tests" / "test_integration.py").exists():
        print(f"pyhoglake's tests are missing under {SOURCE}: run scripts/test.sh", file=sys.stderr)
        return 2
    top = tempfile.mkdtemp(prefix="hoglake-pysuite-")
    os.chmod(top, 0o755)
    s3rver = subprocess.Popen(
        [os.environ["NODE_EXECUTABLE"], os.environ["S3RVER_SCRIPT"], os.path.join(top, "s3"), *BUCKETS],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    server = None
    try:
        line = s3rver.stdout.readline().split()
        if line[:1] != ["PORT"]:
            print(f"s3rver did not start: {line}", file=sys.stderr)
            return 1
        endpoint = f"http://127.0.0.1:{line[1]}"
        # s3rver stores aws-chunked uploads undecoded (see conftest.py).
        plain = {"AWS_REQUEST_CHECKSUM_CALCULATION": "when_required",
                 "AWS_RESPONSE_CHECKSUM_VALIDATION": "when_required"}
        ready = os.path.join(top, "ready")
        log_path = os.path.join(top, "server.log")
        server_env = dict(
            os.environ, **plain,
            HOGLAKE_EXPIRY_INTERVAL_MS="0",
            HOGLAKE_HYDRATOR_INTERVAL_MS="500",
            HOGLAKE_ALLOWED_DATA_PATHS=" ".join(f"s3://{b}/" for b in BUCKETS),
            AWS_ENDPOINT_URL_S3=endpoint, AWS_ACCESS_KEY_ID="S3RVER",
            AWS_SECRET_ACCESS_KEY="S3RVER", AWS_REGION="us-east-1",
        )
        with open(log_path, "w") as log:
            server = subprocess.Popen(
                [os.environ["HOGLAKE_BIN"], "serve", "--data-dir", os.path.join(top, "data"),
                 "--listen", "127.0.0.1:0", "--ready-file", ready],
                env=server_env, stderr=log,
            )
        deadline = time.monotonic() + 90
        while not os.path.exists(ready):
            if server.poll() is not None or time.monotonic() > deadline:
                print("hoglake serve did not start:\n" + open(log_path).read(), file=sys.stderr)
                return 1
            time.sleep(0.05)
        test_env = dict(
            os.environ, **plain,
            HOGLAKE_URL=open(ready).read().strip(),
            HOGLAKE_S3_ENDPOINT=endpoint, HOGLAKE_S3_ACCESS_KEY="S3RVER",
            HOGLAKE_S3_SECRET_KEY="S3RVER",
        )
        for test, why in KNOWN_DIFFERENCES.items():
            print(f"deselected {test}: {why}")
        args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE",
                "tests/test_integration.py", "tests/qe_live_adversarial.py"]
        for test in KNOWN_DIFFERENCES:
            args += ["--deselect", test]
        result = subprocess.run(args, cwd=SOURCE, env=test_env)
        if result.returncode != 0:
            print("server log:\n" + open(log_path).read()[-20000:], file=sys.stderr)
        return result.returncode
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=60)
        s3rver.stdin.close()
        s3rver.wait(timeout=30)
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
