"""Prints, for the hotdata SDK installed in this venv, the HTTP request each
SDK call hotdata-ibis makes serialises to (method, path, query, headers,
JSON body) and the fields of every response model with which are required.

No network: requests are built with the SDK's own serialisers and never
sent; the token starts with "eyJ" so the SDKs that exchange API tokens for
JWTs pass it through. Used to write README.md; rerun it after changing a
lock file:
    .venv-gen01/bin/python sdk_calls.py
"""

from __future__ import annotations

import enum
import inspect
import json
import re
import typing

import hotdata
import hotdata.api as generated
import hotdata.models as models
from pydantic import BaseModel

TOKEN = "eyJ.example.token"

# (api class, method, arguments) for each call hotdata-ibis makes.
CALLS = [
    ("ConnectionsApi", "list_connections", {}),
    ("InformationSchemaApi", "information_schema",
     dict(connection_id="CONN", var_schema="SCHEMA", table="TABLE", include_columns=True,
          limit=500, cursor="CURSOR")),
    ("QueryApi", "query", dict(query_request="QUERY_REQUEST", x_database_id="DB")),
    ("QueryRunsApi", "get_query_run", dict(id="RUN", x_database_id="DB")),
    ("ResultsApi", "get_result", dict(id="RESULT", x_database_id="DB")),
    ("UploadsApi", "upload_file", dict(body=b"PAR1...")),
    ("UploadsApi", "create_upload_session_handler",
     dict(create_upload_request="UPLOAD_REQUEST")),
    ("UploadsApi", "finalize_upload_handler",
     dict(upload_id="UPLOAD", x_upload_finalize_token="FINALIZE_TOKEN",
          finalize_upload_request="FINALIZE_REQUEST")),
    ("ConnectionsApi", "create_connection", dict(create_connection_request="CONN_REQUEST")),
    ("ConnectionsApi", "delete_connection", dict(connection_id="CONN")),
    ("ConnectionsApi", "load_managed_table",
     dict(connection_id="CONN", var_schema="SCHEMA", schema="SCHEMA", table="TABLE",
          load_managed_table_request="LOAD_REQUEST")),
    ("ConnectionsApi", "delete_managed_table",
     dict(connection_id="CONN", var_schema="SCHEMA", schema="SCHEMA", table="TABLE")),
    ("DatabasesApi", "create_database", dict(create_database_request="DB_REQUEST")),
    ("DatabasesApi", "get_database", dict(database_id="DB", id="DB")),
    ("DatabasesApi", "delete_database", dict(database_id="DB", id="DB")),
]


def _request_models():
    """The request bodies hotdata-ibis builds, per generation."""
    out = {"QUERY_REQUEST": models.QueryRequest(sql="SELECT 1", var_async=True)}
    conn = models.CreateConnectionRequest
    if "skip_discovery" in conn.model_fields:  # hotdata-ibis 0.1.1's managed connection
        out["CONN_REQUEST"] = conn(
            name="sales", source_type="managed", skip_discovery=True,
            config={"schemas": [{"name": "public", "tables": [{"name": "orders"}]}]})
    if hasattr(models, "CreateDatabaseRequest"):
        schema_decl = getattr(models, "DatabaseDefaultSchemaDecl", None)
        table_decl = getattr(models, "DatabaseDefaultTableDecl", None)
        kwargs = {"name": "sales"}
        if schema_decl and table_decl:
            kwargs["schemas"] = [schema_decl(name="main", tables=[table_decl(name="orders")])]
        out["DB_REQUEST"] = models.CreateDatabaseRequest(**kwargs)
    load = dict(mode="replace", upload_id="UPLOAD")
    if "var_async" in models.LoadManagedTableRequest.model_fields:
        load["var_async"] = False
    out["LOAD_REQUEST"] = models.LoadManagedTableRequest(**load)
    if hasattr(models, "CreateUploadRequest"):
        out["UPLOAD_REQUEST"] = models.CreateUploadRequest(
            content_type="application/parquet", part_size=8 * 1024 * 1024,
            declared_size_bytes=1234)
        out["FINALIZE_REQUEST"] = models.FinalizeUploadRequest()
    return out


def _type_name(annotation) -> str:
    if inspect.isclass(annotation) and issubclass(annotation, enum.Enum):
        return "enum " + "|".join(str(m.value) for m in annotation)
    text = str(annotation)
    text = re.sub(r"typing\.|hotdata\.models\.[a-z_]+\.|pydantic\.types\.|annotated_types\.", "", text)
    text = text.replace("<class '", "").replace("'>", "")
    return text


def _nested_models(annotation):
    if inspect.isclass(annotation) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _nested_models(arg)


def describe_model(model, seen: set) -> list[str]:
    if model.__name__ in seen:
        return []
    seen.add(model.__name__)
    lines = [f"  {model.__name__}:"]
    nested = []
    for name, field in model.model_fields.items():
        wire = field.alias or name
        flag = "REQUIRED" if field.is_required() else "optional"
        lines.append(f"    {wire:28s} {flag:8s} {_type_name(field.annotation)}")
        nested.extend(_nested_models(field.annotation))
    for sub in nested:
        lines.extend(describe_model(sub, seen))
    return lines


def main() -> None:
    conf = hotdata.Configuration(host="http://HOST", api_key=TOKEN, workspace_id="WS")
    client = hotdata.ApiClient(conf)
    bodies = _request_models()
    print(f"hotdata SDK {getattr(hotdata, '__version__', '?')}")
    seen: set = set()
    for cls_name, method, candidates in CALLS:
        cls = getattr(generated, cls_name, None)
        if cls is None or not hasattr(cls, f"_{method}_serialize"):
            continue
        api = cls(client)
        serialize = getattr(api, f"_{method}_serialize")
        params = inspect.signature(getattr(api, method)).parameters
        kwargs = {}
        for pname in inspect.signature(serialize).parameters:
            if pname in ("_request_auth", "_content_type", "_headers"):
                kwargs[pname] = None
            elif pname == "_host_index":
                kwargs[pname] = 0
            else:
                value = candidates.get(pname)
                kwargs[pname] = bodies.get(value, value) if isinstance(value, str) else value
        verb, url, headers, body, _ = serialize(**kwargs)
        required_params = [p for p, v in params.items()
                           if v.default is inspect.Parameter.empty and not p.startswith("_")]
        print(f"\n{cls_name}.{method}({', '.join(required_params)})")
        print(f"  {verb} {url.replace('http://HOST', '')}")
        for key, val in sorted(headers.items()):
            print(f"  header {key}: {val}")
        if body is not None:
            shown = body if isinstance(body, (bytes, str)) else json.dumps(body)
            print(f"  body {shown!s}"[:300])
        source = inspect.getsource(getattr(cls, method))
        types_map = re.search(r"_response_types_map[^{]*\{([^}]*)\}", source)
        if types_map:
            print("  responses: " + " ".join(types_map.group(1).split()))
            for model_name in re.findall(r'"([A-Z]\w+)"', types_map.group(1)):
                model = getattr(models, model_name, None)
                if model is not None and not model_name.startswith("ApiError"):
                    print("\n".join(describe_model(model, seen)))


if __name__ == "__main__":
    main()
