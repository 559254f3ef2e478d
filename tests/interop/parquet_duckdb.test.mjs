// Parquet interop: DuckDB (npm @duckdb/node-api, an independent Parquet
// implementation) and hoglake must read each other's files with the same
// values, types and field ids.
//   1. hoglake writes the corpus of every column type (parquet_tool corpus)
//      with each codec, with and without dictionary encoding; DuckDB reads it
//      and its values, rendered here in hoglake's JSON row form, equal the
//      rows hoglake wrote. parquet_schema() shows our field ids and
//      annotations.
//   2. DuckDB writes a table of every type it shares with hoglake (default
//      settings, each codec, PARQUET_VERSION V2, FIELD_IDS); hoglake's reader
//      (parquet_tool cat) returns the values DuckDB holds.
// Needs PARQUET_TOOL_BIN (set by CTest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { floatJson, doubleJson, dateText, timeText, timestampText, decimalText } from './arrow_render.mjs';

const tool = process.env.PARQUET_TOOL_BIN;
assert.ok(tool, 'PARQUET_TOOL_BIN must point at the parquet_tool executable');
const dir = mkdtempSync(join(tmpdir(), 'hoglake-parquet-'));
const run = (...args) => execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const query = async (sql) => (await con.runAndReadAll(sql));
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

// ---- hoglake's JSON row form, from DuckDB values --------------------------
// Driven by the columnar field (as `parquet_tool schema` prints it) for units
// and scales; every value comes from DuckDB.

const PER_SECOND = { s: 1n, ms: 1000n, us: 1000000n, ns: 1000000000n };

function render(v, field) {
  if (v === null || v === undefined) return 'null';
  const type = field.type;
  if (type === 'bool') return v ? 'true' : 'false';
  if (/^u?int(8|16|32|64)$/.test(type)) return BigInt(v).toString();
  if (type === 'float') return floatJson(v);
  if (type === 'double') return doubleJson(v);
  if (type.startsWith('decimal128')) return '"' + decimalText(v.value, v.scale) + '"';
  if (type === 'date32[day]') return '"' + dateText(v.days) + '"';
  if (type === 'time64[us]') return '"' + timeText(BigInt(v.micros), 1000000n) + '"';
  let m = /^timestamp\[(s|ms|us|ns)(, tz=.*)?\]$/.exec(type);
  if (m) {
    const per = PER_SECOND[m[1]];
    let ticks;
    if (v.nanos !== undefined) {
      ticks = BigInt(v.nanos) * per / 1000000000n;
      assert.equal(BigInt(v.nanos) % (1000000000n / per), 0n);
    } else {
      const micros = BigInt(v.micros);
      ticks = per >= 1000000n ? micros * (per / 1000000n) : micros / (1000000n / per);
      if (per < 1000000n) assert.equal(micros % (1000000n / per), 0n, `${field.name}: sub-unit ticks`);
    }
    return '"' + timestampText(ticks, per, !!m[2]) + '"';
  }
  if (type === 'utf8') return JSON.stringify(v);
  if (type === 'binary') return '"' + Buffer.from(v.bytes).toString('base64') + '"';
  m = /^fixed_size_binary\[(\d+)\]$/.exec(type);
  if (m) {
    if (m[1] === '16' && v.constructor.name === 'DuckDBUUIDValue') return '"' + v.toString() + '"';
    return '"' + Buffer.from(v.bytes).toString('base64') + '"';
  }
  if (type === 'list') return '[' + v.items.map((x) => render(x, field.children[0])).join(',') + ']';
  if (type === 'struct') {
    return '{' + field.children.map((c) => JSON.stringify(c.name) + ':' + render(v.entries[c.name], c)).join(',') + '}';
  }
  if (type === 'map') {
    const [key, value] = field.children[0].children;
    return '[' + v.entries.map((e) => `{"key":${render(e.key, key)},"value":${render(e.value, value)}}`).join(',') + ']';
  }
  throw new Error(`no rendering for ${field.name}: ${type}`);
}

async function duckRowsAsJson(sql, schema) {
  const result = await query(sql);
  assert.deepEqual(result.columnNames(), schema.fields.map((f) => f.name));
  return result.getRows().map((row) =>
    '{' + row.map((v, c) => JSON.stringify(schema.fields[c].name) + ':' + render(v, schema.fields[c])).join(',') + '}');
}

function assertSameLines(ours, theirs, what) {
  assert.equal(ours.length, theirs.length, `${what}: row counts`);
  for (let i = 0; i < ours.length; i++) assert.equal(ours[i], theirs[i], `${what}: row ${i}`);
}

// ---- 1. DuckDB reads what hoglake writes ------------------------------------

const CORPUS_CASES = [
  ['zstd', 'dict'], ['zstd', 'plain'], ['snappy', 'dict'], ['gzip', 'plain'],
  ['none', 'dict'], ['lz4_raw', 'plain'], ['brotli', 'dict'],
];

for (const [codec, dict] of CORPUS_CASES) {
  test(`DuckDB reads hoglake's corpus (${codec}, ${dict})`, async () => {
    const path = join(dir, `corpus-${codec}-${dict}.parquet`);
    const expected = run('corpus', path, codec, dict).trimEnd().split('\n');
    const schema = JSON.parse(run('schema', path));
    const theirs = await duckRowsAsJson(`SELECT * FROM read_parquet(${sqlString(path)})`, schema);
    assertSameLines(expected, theirs, `${codec}/${dict}`);

    const meta = await query(`SELECT DISTINCT compression FROM parquet_metadata(${sqlString(path)})`);
    const want = { zstd: 'ZSTD', snappy: 'SNAPPY', gzip: 'GZIP', none: 'UNCOMPRESSED', lz4_raw: 'LZ4_RAW', brotli: 'BROTLI' }[codec];
    assert.deepEqual(meta.getRows().map((r) => r[0]), [want]);
  });
}

test('parquet_schema() shows field ids on every node but the synthetic groups', async () => {
  const path = join(dir, 'corpus-zstd-dict.parquet');
  run('corpus', path, 'zstd', 'dict');
  const rows = (await query(`SELECT name, type, converted_type, logical_type, field_id, repetition_type
                             FROM parquet_schema(${sqlString(path)})`)).getRowObjects();
  const byPath = [];
  // Rebuild dotted paths from the depth-first listing using our schema.
  const ids = rows.slice(1).map((r) => [r.name, r.field_id === null ? null : Number(r.field_id)]);
  for (const [name, id] of ids) {
    if (name === 'list' || name === 'key_value') assert.equal(id, null, `${name} must carry no field id`);
    else assert.ok(Number.isInteger(id), `${name} must carry a field id`);
    byPath.push(id);
  }
  const expectedIds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    30, null, 31, 39, null, 40, 41, 42, 50, 51, 52, null, 53, 54, 55, 60, null, 61, 62, null, 63,
    70, null, 71, null, 72, 75, null, 76, 80, null, 81, 82, 83];
  assert.deepEqual(byPath, expectedIds);
  const find = (name) => rows.find((r) => r.name === name);
  assert.equal(find('i8').logical_type, 'IntType(bitWidth=\b, isSigned=1)');
  assert.equal(find('u64').converted_type, 'UINT_64');
  assert.equal(find('u32').type, 'INT64');
  assert.equal(find('ts_s').logical_type, 'TimestampType(isAdjustedToUTC=0, unit=TimeUnit(MILLIS=MilliSeconds(), MICROS=<null>, NANOS=<null>))');
  assert.match(find('tstz').logical_type, /isAdjustedToUTC=1/);
  assert.equal(find('uuid').logical_type, 'UUIDType()');
  assert.equal(find('j').logical_type, 'JsonType()');
  assert.equal(find('dec').type, 'FIXED_LEN_BYTE_ARRAY');
  assert.equal(Number(find('dec').type_length ?? 16), 16);
  const types = (await query(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`)).getRowObjects();
  const typeOf = Object.fromEntries(types.map((r) => [r.column_name, r.column_type]));
  assert.equal(typeOf.u32, 'BIGINT');
  assert.equal(typeOf.u64, 'UBIGINT');
  assert.equal(typeOf.uuid, 'UUID');
  assert.equal(typeOf.tstz, 'TIMESTAMP WITH TIME ZONE');
  assert.equal(typeOf.m, 'MAP(VARCHAR, INTEGER[])');
  const created = (await query(`SELECT DISTINCT created_by FROM parquet_file_metadata(${sqlString(path)})`)).getRows();
  assert.match(created[0][0], /^hoglake version /);
  // DuckDB sees our statistics.
  const stats = (await query(`SELECT stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata(${sqlString(path)})
                              WHERE path_in_schema = 'i8' AND row_group_id = 0`)).getRows();
  assert.equal(stats[0][0], '-128');
  assert.equal(stats[0][1], '127');
});

// ---- 2. hoglake reads what DuckDB writes ------------------------------------

const SOURCE = `
CREATE TABLE src AS SELECT
  i AS id,
  CASE WHEN i % 7 = 3 THEN NULL ELSE i % 3 = 0 END AS b,
  CASE WHEN i % 7 = 4 THEN NULL ELSE (i % 256 - 128)::TINYINT END AS i8,
  ((i * 37) % 65536 - 32768)::SMALLINT AS i16,
  CASE WHEN i % 5 = 0 THEN NULL ELSE ((i * 2654435761) % 4294967296 - 2147483648)::INTEGER END AS i32,
  (i * 1099511628211 - 4611686018427387904)::BIGINT AS i64,
  (i % 256)::UTINYINT AS u8,
  ((i * 7) % 65536)::USMALLINT AS u16,
  ((i * 2654435761) % 4294967296)::UINTEGER AS u32,
  (18446744073709551615 - i * 1000003)::UBIGINT AS u64,
  CASE WHEN i % 9 = 0 THEN NULL ELSE (i / 7.0)::FLOAT END AS f32,
  CASE WHEN i % 11 = 0 THEN 'NaN'::DOUBLE WHEN i % 13 = 0 THEN '-Infinity'::DOUBLE ELSE i * 1.1e10 / 3 END AS f64,
  ((i % 9999) / 10)::DECIMAL(4, 1) AS dec4,
  CASE WHEN i % 6 = 0 THEN NULL ELSE (i * 123456789.123 - 99999999.5)::DECIMAL(18, 3) END AS dec18,
  ('12345678901234567890.1234567891'::DECIMAL(38, 10) * (i - 1500))::DECIMAL(38, 10) AS dec38,
  DATE '1970-01-01' + (i * 37 - 50000)::INTEGER AS d,
  TIME '00:00:00' + to_microseconds((i * 28799999) % 86400000000) AS t,
  TIMESTAMP '1900-01-01' + to_microseconds(i * 987654321987) AS ts,
  CASE WHEN i % 8 = 0 THEN NULL ELSE (TIMESTAMP '1960-01-01' + to_microseconds(i * 7777777))::TIMESTAMP_NS END AS ts_ns,
  to_timestamp(i * 1234567.891) AS tstz,
  CASE WHEN i % 6 = 0 THEN NULL ELSE 'str ' || i || repeat('é', i % 5) END AS s,
  ('{"k":' || (i % 50) || '}')::JSON AS j,
  CASE WHEN i % 10 = 0 THEN NULL ELSE encode('bin' || (i % 97)) END AS bin,
  (substr(md5(i::VARCHAR), 1, 8) || '-' || substr(md5(i::VARCHAR), 9, 4) || '-' || substr(md5(i::VARCHAR), 13, 4) || '-' ||
   substr(md5(i::VARCHAR), 17, 4) || '-' || substr(md5(i::VARCHAR), 21, 12))::UUID AS u,
  CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL, i * 2][1:(i % 4)] END AS l,
  {'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 's' || i END, 'c': [i::DOUBLE, 0.5]} AS st,
  CASE WHEN i % 5 = 0 THEN NULL ELSE MAP(['k' || i, 'z' || i], [i, NULL::INTEGER]) END AS m,
  [[i], [], NULL, [NULL, i + 1]][1:(i % 5)] AS ll
FROM range(0, 3000) r(i)`;

await query(SOURCE);

const DUCK_CASES = [
  ['default', ''],
  ['zstd', ", COMPRESSION 'zstd'"],
  ['gzip', ", COMPRESSION 'gzip'"],
  ['uncompressed', ", COMPRESSION 'uncompressed'"],
  ['lz4', ", COMPRESSION 'lz4'"],
  ['brotli', ", COMPRESSION 'brotli'"],
  ['v2-snappy', ", PARQUET_VERSION V2"],
  ['v2-zstd', ", PARQUET_VERSION V2, COMPRESSION 'zstd'"],
  ['v2-uncompressed', ", PARQUET_VERSION V2, COMPRESSION 'uncompressed'"],
  ['small-row-groups', ", ROW_GROUP_SIZE 500, PARQUET_VERSION V2, COMPRESSION 'gzip'"],
];

for (const [name, options] of DUCK_CASES) {
  test(`hoglake reads the file DuckDB writes (${name})`, async () => {
    const path = join(dir, `duck-${name}.parquet`);
    await query(`COPY (SELECT * FROM src ORDER BY id) TO ${sqlString(path)} (FORMAT parquet, FIELD_IDS 'auto'${options})`);
    const schema = JSON.parse(run('schema', path));
    const ours = run('cat', path).trimEnd().split('\n');
    const theirs = await duckRowsAsJson('SELECT * FROM src ORDER BY id', schema);
    assertSameLines(ours, theirs, name);
    // Types we map DuckDB's annotations to, and the field ids it wrote.
    const typeOf = Object.fromEntries(schema.fields.map((f) => [f.name, f]));
    assert.equal(typeOf.i8.type, 'int8');
    assert.equal(typeOf.u32.type, 'uint32');
    assert.equal(typeOf.u64.type, 'uint64');
    assert.equal(typeOf.dec4.type, 'decimal128(4, 1)');
    assert.equal(typeOf.dec38.type, 'decimal128(38, 10)');
    assert.equal(typeOf.ts.type, 'timestamp[us]');
    assert.equal(typeOf.ts_ns.type, 'timestamp[ns]');
    assert.equal(typeOf.tstz.type, 'timestamp[us, tz=UTC]');
    assert.equal(typeOf.u.type, 'fixed_size_binary[16]');
    assert.equal(typeOf.u.metadata['ARROW:extension:name'], 'arrow.uuid');
    for (const f of schema.fields) assert.ok(f.metadata['PARQUET:field_id'], `${f.name} has a field id`);
    // Projection by name.
    const projected = run('cat', path, 'st,id').trimEnd().split('\n');
    assert.equal(projected.length, 3000);
    assert.ok(projected[1].startsWith('{"st":{"a":1,'), projected[1]);
  });
}

// ---- 3. `hoglake parquet cat` and `hoglake parquet inspect` -----------------
// cat: the rows of a file hoglake wrote equal what DuckDB returns for it.
// inspect: for a file DuckDB wrote, the column_stats bounds equal bounds
// computed here from the data DuckDB holds (min/max per column in the
// column type's order, encoded as the Iceberg single value).

const hoglake = process.env.HOGLAKE_BIN;
const runHoglake = (...args) => execFileSync(hoglake, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

test('hoglake parquet cat prints the rows DuckDB reads from our file', { skip: !hoglake }, async () => {
  const path = join(dir, 'cat-zstd-dict.parquet');
  const expected = run('corpus', path, 'zstd', 'dict').trimEnd().split('\n');
  const schema = JSON.parse(run('schema', path));
  const ours = runHoglake('parquet', 'cat', path).trimEnd().split('\n');
  const theirs = await duckRowsAsJson(`SELECT * FROM read_parquet(${sqlString(path)})`, schema);
  assertSameLines(ours, theirs, 'parquet cat');
  assertSameLines(ours, expected, 'parquet cat vs written');
  // Projection and limit (the limit crosses a row-group boundary).
  const fields = Object.fromEntries(schema.fields.map((f) => [f.name, f]));
  const projected = runHoglake('parquet', 'cat', path, '--columns', 'st,i8', '--limit', '130').trimEnd().split('\n');
  const duckProjected = await duckRowsAsJson(`SELECT st, i8 FROM read_parquet(${sqlString(path)}) LIMIT 130`,
    { fields: [fields.st, fields.i8] });
  assertSameLines(projected, duckProjected, 'parquet cat --columns --limit');
  assert.equal(runHoglake('parquet', 'cat', path, '--limit', '0'), '');
});

// Iceberg single-value encodings (pyhoglake-writer §5), written independently.
function leBytes(value, width, signed) {
  const b = Buffer.alloc(width);
  if (width === 4) signed ? b.writeInt32LE(Number(value)) : b.writeUInt32LE(Number(value));
  else signed ? b.writeBigInt64LE(BigInt(value)) : b.writeBigUInt64LE(BigInt(value));
  return b;
}
function minimalTwosComplement(n) {
  n = BigInt(n);
  const magnitude = n >= 0n ? n : -(n + 1n);
  const length = Math.floor(magnitude.toString(2).length * (magnitude === 0n ? 0 : 1) / 8) + 1;
  const b = Buffer.alloc(length);
  let v = BigInt.asUintN(length * 8, n);
  for (let i = length - 1; i >= 0; i--) { b[i] = Number(v & 0xffn); v >>= 8n; }
  return b;
}
const uuidBytes = (text) => Buffer.from(text.replaceAll('-', ''), 'hex');

// [sort key comparator, encoder] per catalog type (as inspect's stats_columns names it).
function boundCodec(type) {
  const num = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const bytes = (a, b) => Buffer.compare(a, b);
  switch (type) {
    case 'boolean': return { key: (v) => (v ? 1 : 0), cmp: num, enc: (v) => Buffer.from([v]) };
    case 'int8': case 'int16': case 'int': case 'uint8': case 'uint16':
      return { key: (v) => BigInt(v), cmp: num, enc: (v) => leBytes(v, 4, true) };
    case 'long': case 'uint32': return { key: (v) => BigInt(v), cmp: num, enc: (v) => leBytes(v, 8, true) };
    case 'uint64': return { key: (v) => BigInt(v), cmp: num, enc: minimalTwosComplement };
    case 'float': return { key: (v) => v, cmp: num, enc: (v) => { const b = Buffer.alloc(4); b.writeFloatLE(v); return b; } };
    case 'double': return { key: (v) => v, cmp: num, enc: (v) => { const b = Buffer.alloc(8); b.writeDoubleLE(v); return b; } };
    case 'date': return { key: (v) => BigInt(v.days), cmp: num, enc: (v) => leBytes(v, 4, true) };
    case 'time': case 'timestamp': case 'timestamptz':
      return { key: (v) => BigInt(v.micros), cmp: num, enc: (v) => leBytes(v, 8, true) };
    case 'timestamp_ns': return { key: (v) => BigInt(v.nanos), cmp: num, enc: (v) => leBytes(v, 8, true) };
    case 'string': case 'json': return { key: (v) => Buffer.from(String(v), 'utf8'), cmp: bytes, enc: (v) => v };
    case 'binary': return { key: (v) => Buffer.from(v.bytes), cmp: bytes, enc: (v) => v };
    case 'uuid': return { key: (v) => uuidBytes(v.toString()), cmp: bytes, enc: (v) => v };
    default:
      if (type.startsWith('decimal(')) return { key: (v) => BigInt(v.value), cmp: num, enc: minimalTwosComplement };
      throw new Error(`no bound codec for ${type}`);
  }
}

test('hoglake parquet inspect: bounds of a DuckDB-written file match the data', { skip: !hoglake }, async () => {
  const path = join(dir, 'duck-stats.parquet');
  await query(`COPY (SELECT * FROM src ORDER BY id) TO ${sqlString(path)}
               (FORMAT parquet, FIELD_IDS 'auto', ROW_GROUP_SIZE 700, COMPRESSION 'zstd')`);
  const report = JSON.parse(runHoglake('parquet', 'inspect', '--json', path));
  assert.ok(report.row_groups.length > 1, 'several row groups');
  assert.equal(report.num_rows, 3000);
  const trailer = (await import('node:fs')).readFileSync(path);
  assert.equal(report.footer_size, trailer.readUInt32LE(trailer.length - 8), 'footer_size convention');
  const statsById = new Map(report.column_stats.map((s) => [s.field_id, s]));
  const topLevel = report.stats_columns.filter((c) => !c.path.includes('.'));
  assert.ok(topLevel.length >= 20, `scalar columns with stats: ${topLevel.map((c) => c.path)}`);
  for (const column of topLevel) {
    const stats = statsById.get(column.field_id);
    assert.ok(stats, `${column.path} has column stats`);
    const name = column.path;
    const rows = (await query(`SELECT ${name}, ${name} IS NULL AS is_null FROM src`)).getRows();
    assert.equal(stats.value_count, 3000, `${name} value_count`);
    assert.equal(stats.null_count, rows.filter((r) => r[1]).length, `${name} null_count`);
    const codec = boundCodec(column.type);
    let values = rows.filter((r) => !r[1]).map((r) => r[0]);
    if ((column.type === 'float' || column.type === 'double') && values.some((v) => Number.isNaN(v))) {
      // DuckDB writes no min/max for a chunk holding a NaN; a chunk with
      // values but without min/max drops the column's bounds (§4.5).
      const chunks = report.row_groups.map((g) => g.columns.find((c) => c.path === name));
      assert.ok(chunks.some((c) => c.statistics.min_value_hex === undefined), `${name}: a chunk without min/max`);
      assert.equal(stats.lower_bound, undefined, `${name}: no lower bound`);
      assert.equal(stats.upper_bound, undefined, `${name}: no upper bound`);
      continue;
    }
    let lo = null; let hi = null;
    for (const v of values) {
      const k = codec.key(v);
      if (lo === null || codec.cmp(k, lo) < 0) lo = k;
      if (hi === null || codec.cmp(k, hi) > 0) hi = k;
    }
    const lower = codec.enc(lo).toString('base64');
    const upper = codec.enc(hi).toString('base64');
    assert.equal(stats.lower_bound, lower, `${name} (${column.type}) lower bound`);
    assert.equal(stats.upper_bound, upper, `${name} (${column.type}) upper bound`);
  }
  // Leaves under lists/structs/maps carry their own stats; value_count
  // counts values, not rows.
  const element = report.stats_columns.find((c) => c.path === 'l.list.element');
  assert.ok(element && statsById.get(element.field_id), 'l.list.element has stats');
  assert.ok(statsById.get(element.field_id).value_count > 3000 * 0.5);
});
