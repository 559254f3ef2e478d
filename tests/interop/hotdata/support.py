"""Helpers shared by the workload's test modules: connecting to hoglake
serve with hotdata-ibis, resolving the data set's catalog, materialising
an expression. The environment variables are described in conftest.py.
"""

from __future__ import annotations

import os
import types

import ibis
import ibis_hotdata
import pytest

import dataset

HOTDATA_IBIS_VERSION = tuple(int(p) for p in ibis_hotdata.__version__.split(".")[:3])
# hotdata-ibis before 0.1.2 manages databases as `managed` connections and
# uploads through POST /v1/files; later ones use /v1/databases and /v1/uploads.
LEGACY_MANAGED = HOTDATA_IBIS_VERSION < (0, 1, 2)


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} must be set (tests/interop/hotdata/run_workload.py sets it)")
    return value


def connect(**overrides):
    """ibis.hotdata.connect to hoglake serve with the environment's URL and token."""
    kwargs = dict(
        api_url=_env("HOGLAKE_API_URL"),
        token=_env("HOGLAKE_API_TOKEN"),
        workspace_id=os.environ.get("HOGLAKE_API_WORKSPACE") or "hoglake",
        timeout=60.0,
        poll_interval_s=0.05,
        poll_timeout_s=120.0,
    )
    kwargs.update(overrides)
    return ibis.hotdata.connect(**kwargs)


def catalog_id(con, name: str) -> str:
    """The connection id (ibis catalog) of the hoglake catalog `name`: the
    name itself when the server uses names as ids, else the connection
    whose name matches."""
    ids = con.list_catalogs()
    if name in ids:
        return name
    for conn in con._http.list_connections()["connections"]:
        if conn.get("name") == name:
            return conn["id"]
    raise AssertionError(f"no connection named {name!r} among {ids}")


class Remote:
    """The workload tables over hoglake serve, resolved on first use."""

    def __init__(self):
        self.con = connect()
        self.catalog_name = _env("HOGLAKE_HOTDATA_CATALOG")
        self._catalog = None
        self._tables = None

    @property
    def catalog(self) -> str:
        if self._catalog is None:
            self._catalog = catalog_id(self.con, self.catalog_name)
        return self._catalog

    def tables(self):
        if self._tables is None:
            self._tables = types.SimpleNamespace(**{
                name: self.con.table(name, database=(self.catalog, dataset.SCHEMA_NAME))
                for name in dataset.TABLES
            })
        return self._tables


def materialize(expr, via: str):
    if via == "pyarrow":
        return expr.to_pyarrow()
    return expr.execute()
