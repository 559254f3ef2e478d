// The CLI writer path end to end, checked by DuckDB (npm @duckdb/node-api):
// a real `hoglake serve` (embedded PostgreSQL), `hoglake table create` of a
// partitioned events table, `hoglake append` of docs/examples/events.csv and
// of JSON lines, then DuckDB reads every file the catalog registered and
// must return exactly the appended rows, with the catalog's field ids in
// parquet_schema(). A CSV with a malformed value must name its line and
// column, exit 1 and register nothing.
// Needs HOGLAKE_BIN (set by CTest).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const hoglake = process.env.HOGLAKE_BIN;
assert.ok(hoglake, 'HOGLAKE_BIN must point at the hoglake executable');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'hoglake-cli-'));
chmodSync(dir, 0o755);  // the embedded PostgreSQL runs as another user when root

const ready = join(dir, 'ready');
const server = spawn(hoglake, ['serve', '--data-dir', join(dir, 'data'), '--listen', '127.0.0.1:0',
                               '--ready-file', ready], { stdio: ['ignore', 'ignore', 'inherit'] });
after(() => server.kill('SIGTERM'));
for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
assert.ok(existsSync(ready), 'hoglake serve did not become ready');
const url = readFileSync(ready, 'utf8').trim();

const cli = (...args) => execFileSync(hoglake, ['--url', url, ...args], { encoding: 'utf8' });
const cliResult = (...args) => spawnSync(hoglake, ['--url', url, ...args], { encoding: 'utf8' });

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

cli('catalog', 'create', 'lake');
cli('namespace', 'create', 'lake.analytics');
const table = 'lake.analytics.events';
cli('table', 'create', table, '--column', 'event_id:long:not-null', '--column', 'team_id:int',
    '--column', 'ts:timestamptz', '--column', 'kind:string', '--column', 'amount:decimal(10,2)',
    '--column', 'note:string', '--partition-by', 'team_id', '--partition-by', 'month(ts)');
const info = JSON.parse(cli('table', 'show', table, '--json'));
const fieldIds = Object.fromEntries(info.columns.map((c) => [c.name, c.field_id]));

// The CSV, parsed here independently (RFC 4180 subset: quotes, "" escapes).
function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; }
    else cell += c;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}
const csvPath = join(root, 'docs', 'examples', 'events.csv');
const [header, ...csvRows] = parseCsv(readFileSync(csvPath, 'utf8'));
// Expected rows in DuckDB's terms: ts as UTC micros, amount as text at scale 2.
const expected = csvRows.map((r) => {
  const o = Object.fromEntries(header.map((h, i) => [h, r[i]]));
  const ms = Date.parse(o.ts);  // ISO-8601 with offsets; sub-ms digits added below
  const frac = /\.(\d+)/.exec(o.ts);
  const micros = BigInt(Math.floor(ms / 1000)) * 1000000n +
                 (frac ? BigInt(frac[1].padEnd(6, '0').slice(0, 6)) : 0n);
  return { event_id: BigInt(o.event_id), team_id: Number(o.team_id), ts: micros, kind: o.kind,
           amount: Number(o.amount).toFixed(2), note: o.note === '' ? null : o.note };
});

async function registeredRows() {
  const files = JSON.parse(cli('files', table, '--json'));
  const paths = files.map((f) => f.path.replace(/^file:\/\//, ''));
  const reader = await con.runAndReadAll(
    `SELECT event_id, team_id, epoch_us(ts) AS ts, kind, CAST(amount AS VARCHAR) AS amount, note
       FROM read_parquet([${paths.map(sqlString).join(',')}]) ORDER BY event_id`);
  return { files, paths, rows: reader.getRowObjects() };
}

test('DuckDB reads exactly the CSV rows hoglake append registered, one file per partition', async () => {
  const out = cli('append', table, csvPath, '--author', 'interop', '--json');
  const appended = JSON.parse(out);
  const { files, paths, rows } = await registeredRows();
  assert.equal(files.length, appended.files.length);
  // 2 teams × the months the rows fall in (UTC): one file each.
  const tuples = new Set(expected.map((r) => {
    const d = new Date(Number(r.ts / 1000n));
    return `${r.team_id}/${(d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth()}`;
  }));
  assert.equal(files.length, tuples.size);
  for (const f of files) {
    assert.ok(tuples.has(f.partition_values.join('/')), `unexpected tuple ${f.partition_values}`);
    assert.equal(f.stats_state, 'provided');
  }
  assert.equal(rows.length, expected.length);
  rows.forEach((row, i) => {
    const want = expected[i];
    assert.equal(BigInt(row.event_id), want.event_id);
    assert.equal(Number(row.team_id), want.team_id);
    assert.equal(BigInt(row.ts), want.ts, `ts of event ${want.event_id}`);
    assert.equal(row.kind, want.kind);
    assert.equal(row.amount, want.amount);
    assert.equal(row.note, want.note);
  });
  // Field ids: the catalog's, on every column of every file.
  for (const path of paths) {
    const schema = (await con.runAndReadAll(
      `SELECT name, field_id FROM parquet_schema(${sqlString(path)})`)).getRowObjects();
    for (const { name, field_id } of schema.slice(1)) {
      assert.equal(Number(field_id), fieldIds[name], `field id of ${name} in ${path}`);
    }
  }
});

test('JSON lines append lands in the same table', async () => {
  const jsonl = join(dir, 'more.jsonl');
  writeFileSync(jsonl, [
    { event_id: 100, team_id: 101, ts: '2026-04-02T10:00:00Z', kind: 'signup', amount: '0.00', note: null },
    { event_id: 101, team_id: 672, ts: '2026-04-03T11:00:00.5Z', kind: 'purchase', amount: 12.5, note: 'json' },
  ].map((o) => JSON.stringify(o)).join('\n') + '\n');
  cli('append', table, jsonl);
  const { rows } = await registeredRows();
  const tail = rows.slice(-2);
  assert.equal(BigInt(tail[0].event_id), 100n);
  assert.equal(tail[1].amount, '12.50');
  assert.equal(BigInt(tail[1].ts), BigInt(Date.parse('2026-04-03T11:00:00Z')) * 1000n + 500000n);
});

test('a malformed value names its line and column and registers nothing', async () => {
  const before = JSON.parse(cli('files', table, '--json')).length;
  const head = JSON.parse(cli('catalog', 'show', 'lake', '--json')).head_snapshot_id;
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'event_id,team_id,ts,kind,amount,note\n' +
                     '200,101,2026-05-01T00:00:00Z,signup,1.00,\n' +
                     '201,101,not-a-time,signup,1.00,\n');
  const result = cliResult('append', table, bad);
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /line 3/);
  assert.match(result.stderr, /'ts'/);
  assert.equal(JSON.parse(cli('files', table, '--json')).length, before);
  assert.equal(JSON.parse(cli('catalog', 'show', 'lake', '--json')).head_snapshot_id, head);
});

test('usage mistakes exit 2', () => {
  const result = cliResult('append', 'not-a-table-name', csvPath);
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /catalog\.namespace\.name/);
});

test('table create takes nested column types and infers columns from a CSV', () => {
  cli('table', 'create', 'lake.analytics.nested', '-c', 'id:long:not-null', '-c', 'tags:list<string>',
      '-c', 'addr:struct<city:string,zip:int>', '-c', 'props:map<string,long>',
      '-c', 'price:decimal(12,3)');
  const nested = JSON.parse(cli('table', 'show', 'lake.analytics.nested', '--json'));
  const byName = Object.fromEntries(nested.columns.map((c) => [c.name, c]));
  assert.equal(byName.id.nullable, false);
  assert.equal(byName.tags.type, 'list');
  assert.equal(byName.tags.children[0].name, 'element');
  assert.deepEqual(byName.addr.children.map((c) => [c.name, c.type]), [['city', 'string'], ['zip', 'int']]);
  assert.deepEqual(byName.props.children.map((c) => c.name), ['key', 'value']);
  assert.deepEqual(byName.price.type_params, { precision: 12, scale: 3 });

  cli('table', 'create', 'lake.analytics.inferred', '--from', csvPath);
  const inferred = JSON.parse(cli('table', 'show', 'lake.analytics.inferred', '--json'));
  assert.deepEqual(inferred.columns.map((c) => [c.name, c.type]),
                   [['event_id', 'long'], ['team_id', 'long'], ['ts', 'timestamptz'],
                    ['kind', 'string'], ['amount', 'double'], ['note', 'string']]);
  const bad = cliResult('table', 'create', 'lake.analytics.bad', '-c', 'x:decimal');
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /decimal\(P,S\)/);
});
