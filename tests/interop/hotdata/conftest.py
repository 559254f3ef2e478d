"""Fixtures for the hotdata-ibis workload against `hoglake serve`.

Runs inside one hotdata-ibis generation's venv (.venv-gen01 or .venv-newest,
see README.md); run_workload.py starts the server, writes the data set and
sets the environment:

    HOGLAKE_API_URL        base URL of hoglake serve (the Hotdata API lives under /v1)
    HOGLAKE_API_TOKEN      bearer token the server accepts
    HOGLAKE_API_WORKSPACE  sent as X-Workspace-Id (default "hoglake")
    HOGLAKE_HOTDATA_CATALOG  hoglake catalog holding tpch.{customer,orders,lineitem}
    HOGLAKE_HOTDATA_PARQUET  directory with the same tables as Parquet (optional:
                             dataset.py regenerates identical files when unset)

The reference side is ibis's own DuckDB backend over the Parquet files. No
fixture talks to the server: the first HTTP request happens inside a test,
so a server that lacks a route fails that test, not the session.

`pytest --reference-only` runs every case's DuckDB side and skips the
hoglake side (needs no server); `pytest --collect-only` lists every case.
"""

from __future__ import annotations

import os
import types

import ibis
import ibis_hotdata
import pytest

import dataset
from support import Remote


def pytest_addoption(parser):
    parser.addoption("--reference-only", action="store_true",
                     help="run only the DuckDB reference side of each case (no server)")


def pytest_report_header(config):
    import hotdata

    return (f"hotdata-ibis {ibis_hotdata.__version__}, hotdata SDK {hotdata.__version__}, "
            f"ibis-framework {ibis.__version__}")


@pytest.fixture(scope="session")
def reference_only(request) -> bool:
    return request.config.getoption("--reference-only")


@pytest.fixture(scope="session")
def parquet_dir(tmp_path_factory) -> str:
    given = os.environ.get("HOGLAKE_HOTDATA_PARQUET")
    if given:
        return given
    out = str(tmp_path_factory.mktemp("parquet"))
    dataset.write_parquet(out)
    return out


@pytest.fixture(scope="session")
def duck():
    """A fresh in-memory ibis DuckDB connection."""
    return ibis.duckdb.connect()


@pytest.fixture(scope="session")
def reference(duck, parquet_dir):
    """The three tables in ibis's DuckDB backend, read from the Parquet files."""
    return types.SimpleNamespace(**{
        name: duck.read_parquet(dataset.parquet_path(parquet_dir, name), table_name=name)
        for name in dataset.TABLES
    })


@pytest.fixture(scope="session")
def remote(reference_only):
    if reference_only:
        return None
    return Remote()
