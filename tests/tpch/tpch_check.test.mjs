// TPC-H correctness: the 22 queries (queries/qNN.sql) at scale factor 0.01
// on our engine (tpch_runner) and on DuckDB (npm @duckdb/node-api, from
// tests/interop/node_modules) over the same Parquet files, which tpchgen-cli
// (tests/interop/python/.venv, pinned in requirements.lock) writes into a
// temporary folder. DuckDB reads them through views named like the tables.
//
// One test per query. It fails when our engine cannot run the query (the
// error is the failure message: nothing is skipped), or when the results
// differ:
//   - the same number of rows and of columns;
//   - order: rows are compared in order, except that rows tied on the
//     query's ORDER BY keys (the last ORDER BY of the query text; output
//     column names) are compared as a multiset; a query without ORDER BY is
//     compared as a multiset;
//   - values: NULL only equals NULL; text and dates exactly; numbers by
//     value — exactly (as decimals) unless DuckDB computes the column in
//     floating point (DOUBLE/FLOAT: its averages and decimal divisions),
//     then within a relative tolerance of 1e-9.
// Column names are not compared (PostgreSQL names an unaliased sum(x) "sum",
// DuckDB "sum(x)").
//
// Needs TPCH_RUNNER_BIN and TPCHGEN_CLI (set by CTest).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const runner = process.env.TPCH_RUNNER_BIN;
const tpchgen = process.env.TPCHGEN_CLI;
assert.ok(runner, 'TPCH_RUNNER_BIN must point at the tpch_runner executable');
assert.ok(tpchgen, 'TPCHGEN_CLI must point at the tpchgen-cli executable');

const TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'];
const queriesDir = join(here, 'queries');
const queries = readdirSync(queriesDir).filter((f) => /^q\d\d\.sql$/.test(f)).sort()
  .map((f) => f.replace(/\.sql$/, ''));
assert.equal(queries.length, 22, 'tests/tpch/queries holds q01.sql … q22.sql');

// ---- data -------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'hoglake-tpch-'));
after(() => rmSync(dir, { recursive: true, force: true }));
execFileSync(tpchgen, ['parquet', '-s', '0.01', `--output-dir=${dir}`], { stdio: ['ignore', 'ignore', 'inherit'] });

// ---- our engine: every query in one run --------------------------------------
const ours = new Map();
{
  const run = spawnSync(runner, ['--data', dir, '--queries', queriesDir],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) {
    throw new Error(`tpch_runner exited with ${run.status ?? run.signal}: ${run.stderr}`);
  }
  for (const line of run.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line);
    ours.set(r.query, r);
  }
}

// ---- DuckDB -------------------------------------------------------------------
const require = createRequire(join(repo, 'tests/interop/package.json'));
const { DuckDBInstance, DuckDBTypeId } = await import(pathToFileURL(require.resolve('@duckdb/node-api')).href);
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
for (const t of TABLES) {
  await con.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet(${sqlString(join(dir, `${t}.parquet`))})`);
}
const FLOATING = new Set([DuckDBTypeId.DOUBLE, DuckDBTypeId.FLOAT]);

async function duckdbResult(sql) {
  const reader = await con.runAndReadAll(sql);
  const floating = reader.columnTypes().map((t) => FLOATING.has(t.typeId));
  const rows = reader.getRows().map((row) => row.map((v) => (v === null || v === undefined ? null : String(v))));
  return { names: reader.columnNames(), floating, rows };
}

// ---- comparison -------------------------------------------------------------
// A decimal's text in one canonical form ("-0012.500" → "-12.5", "-0" → "0"),
// or null when the text is no plain decimal number.
function canonicalDecimal(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const whole = m[2].replace(/^0+/, '') || '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${whole}.${frac}` : whole;
  return body === '0' ? '0' : (m[1] === '-' ? '-' : '') + body;
}

const TOLERANCE = 1e-9;
function valuesEqual(a, b, floating) {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  if (floating) {
    const x = Number(a);
    const y = Number(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return false;
    return Math.abs(x - y) <= TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
  }
  const x = canonicalDecimal(a);
  return x !== null && x === canonicalDecimal(b);
}

// A row's form for ordering rows within a tie group the same way on both
// sides: exact values canonical, floating ones to 12 significant digits.
function rowKey(row, floating) {
  return JSON.stringify(row.map((v, i) => {
    if (v === null) return null;
    if (floating[i]) return Number(v).toPrecision(12);
    return canonicalDecimal(v) ?? v;
  }));
}

// The output columns of the query's last ORDER BY (names, as written).
function orderByColumns(sql) {
  const text = sql.replace(/--[^\n]*/g, ' ');
  const at = text.toLowerCase().lastIndexOf('order by');
  if (at < 0) return [];
  const clause = text.slice(at + 'order by'.length).split(/\blimit\b|;/i)[0];
  return clause.split(',').map((item) => item.trim().split(/\s+/)[0].toLowerCase()).filter(Boolean);
}

// Rows split into runs of equal sort keys; each run sorted by rowKey.
function tieGroups(rows, keyIndexes, floating) {
  const groups = [];
  let last;
  for (const row of rows) {
    const key = JSON.stringify(keyIndexes.map((i) => row[i]));
    if (groups.length === 0 || (keyIndexes.length > 0 && key !== last)) groups.push([]);
    groups[groups.length - 1].push(row);
    last = key;
  }
  return groups.map((g) => g.slice().sort((a, b) => {
    const ka = rowKey(a, floating);
    const kb = rowKey(b, floating);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  }));
}

function compare(name, sql, mine, theirs) {
  const problems = [];
  const width = theirs.names.length;
  if (mine.columns.length !== width) {
    problems.push(`${mine.columns.length} columns, DuckDB ${width}`);
  }
  if (mine.rows.length !== theirs.rows.length) {
    problems.push(`${mine.rows.length} rows, DuckDB ${theirs.rows.length}`);
  }
  if (problems.length) return problems;

  const ourNames = mine.columns.map((c) => c.name.toLowerCase());
  const duckNames = theirs.names.map((n) => n.toLowerCase());
  const keyIndexes = orderByColumns(sql).map((k) => {
    const i = ourNames.indexOf(k);
    const j = i >= 0 ? i : duckNames.indexOf(k);
    if (j < 0) throw new Error(`${name}: ORDER BY key ${k} is not an output column`);
    return j;
  });
  const floating = theirs.floating.map((f, i) => f || mine.columns[i].type === 'double precision' ||
    mine.columns[i].type === 'real');
  const a = tieGroups(mine.rows, keyIndexes, floating);
  const b = tieGroups(theirs.rows, keyIndexes, floating);
  if (a.length !== b.length) {
    return [`${a.length} groups of rows tied on the ORDER BY keys, DuckDB ${b.length}`];
  }
  let row = 0;
  for (let g = 0; g < a.length && problems.length < 5; g++) {
    if (a[g].length !== b[g].length) {
      problems.push(`rows from ${row}: a tie group of ${a[g].length} rows, DuckDB ${b[g].length}`);
      row += a[g].length;
      continue;
    }
    for (let r = 0; r < a[g].length && problems.length < 5; r++, row++) {
      for (let c = 0; c < width; c++) {
        if (!valuesEqual(a[g][r][c], b[g][r][c], floating[c])) {
          problems.push(`row ${row} column ${mine.columns[c].name}: ${JSON.stringify(a[g][r][c])}, ` +
            `DuckDB ${JSON.stringify(b[g][r][c])}`);
        }
      }
    }
  }
  return problems;
}

for (const name of queries) {
  test(`TPC-H ${name} at SF 0.01 equals DuckDB`, async () => {
    const sql = readFileSync(join(queriesDir, `${name}.sql`), 'utf8');
    const mine = ours.get(name);
    assert.ok(mine, `tpch_runner printed no result for ${name}`);
    assert.ok(!mine.error, `our engine failed: ${mine.error}`);
    const theirs = await duckdbResult(sql);
    const problems = compare(name, sql, mine, theirs);
    assert.deepEqual(problems, [], `${name} differs from DuckDB:\n  ${problems.join('\n  ')}`);
  });
}
