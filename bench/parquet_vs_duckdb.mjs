// Parquet writer/reader benchmark: hoglake vs DuckDB on the same data, in the
// same run (issue 3's performance goals).
//
//   node bench/parquet_vs_duckdb.mjs [--rows N] [--quick] [--repeat K]
//        [--bench PATH] [--dir DIR] [--duckdb-threads T]
//
// --rows defaults to 10,000,000; --quick means --rows 1000000 --repeat 1.
// --bench is the parquet_bench executable (default build/bench/parquet_bench).
// DuckDB is @duckdb/node-api from tests/interop/node_modules.
//
// Scenarios (each prints JSON lines {scenario, metric, value, unit[, ratio]}
// where ratio = ours ÷ DuckDB rows/s, best of --repeat runs):
//   write         our writer (zstd) on pre-built batches vs DuckDB
//                 COPY events TO … (FORMAT PARQUET, COMPRESSION zstd) from an
//                 in-memory table holding the same rows
//   read_ours     reading our file: decoding every column (ours) vs DuckDB's
//                 full-column aggregate over it
//   read_duckdb   the same over DuckDB's file
//   writer_memory peak RSS (getrusage maxrss) of a streaming write vs the
//                 largest row group's uncompressed size, per row-group size
// The two files are checked to hold the same data before timing reads.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const quick = args.includes('--quick');
const rows = Number(opt('--rows', quick ? 1000000 : 10000000));
const repeat = Number(opt('--repeat', quick ? 1 : 2));
const bench = opt('--bench', join(repo, 'build/bench/parquet_bench'));
const dir = opt('--dir', mkdtempSync(join(tmpdir(), 'hoglake-parquet-bench-')));
const duckThreads = opt('--duckdb-threads', null);

const require = createRequire(join(repo, 'tests/interop/package.json'));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')).href);
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
if (duckThreads) await con.run(`SET threads = ${Number(duckThreads)}`);
const threads = (await con.runAndReadAll(`SELECT current_setting('threads')`)).getRows()[0][0];

const emit = (line) => console.log(JSON.stringify(line));
const runBench = (...a) => JSON.parse(execFileSync(bench, a, { encoding: 'utf8' }));
const time = async (fn) => {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
};
const best = async (fn) => {
  let min = Infinity;
  for (let k = 0; k < repeat; k++) min = Math.min(min, await fn());
  return min;
};
const sql = (s) => `'${s.replaceAll("'", "''")}'`;

emit({ scenario: 'setup', metric: 'rows', value: rows, unit: 'rows', duckdb_threads: Number(threads), repeat });

// The events table (parquet_bench.cc spells the same formulas).
await con.run(`CREATE TABLE events AS SELECT
    i AS id,
    (i * 31) % 1000 AS team_id,
    make_timestamp(1700000000000000 + i * 1000) AS ts,
    'event_' || ((i * 13) % 50) AS event,
    'user_' || ((i * 2654435761) % 1000003) AS distinct_id,
    ((i * 37) % 100000)::DOUBLE / 100.0::DOUBLE AS value
  FROM range(0, ${rows}) t(i)`);

// ---- write ----
const ours = join(dir, 'ours.parquet');
const theirs = join(dir, 'duckdb.parquet');
let ourWrite = Infinity;
let ourResult;
for (let k = 0; k < repeat; k++) {
  ourResult = runBench('write', ours, '--rows', String(rows));
  ourWrite = Math.min(ourWrite, ourResult.seconds);
}
const duckWrite = await best(() => time(() =>
  con.run(`COPY events TO ${sql(theirs)} (FORMAT PARQUET, COMPRESSION zstd)`)));
const ratio = (a, b) => Number((a / b).toFixed(3));
emit({ scenario: 'write', metric: 'hoglake_rows_per_s', value: Math.round(rows / ourWrite), unit: 'rows/s',
  ratio: ratio(duckWrite, ourWrite) });
emit({ scenario: 'write', metric: 'duckdb_rows_per_s', value: Math.round(rows / duckWrite), unit: 'rows/s' });
emit({ scenario: 'write', metric: 'hoglake_file_bytes', value: statSync(ours).size, unit: 'bytes' });
emit({ scenario: 'write', metric: 'duckdb_file_bytes', value: statSync(theirs).size, unit: 'bytes' });

// Same data in both files (order-independent fingerprint of every column).
const fingerprint = async (path) => (await con.runAndReadAll(`SELECT count(*), sum(id), sum(team_id),
    sum(epoch_us(ts)), sum(hash(event)), sum(hash(distinct_id)), sum(round(value * 100)::BIGINT)
  FROM read_parquet(${sql(path)})`)).getRows()[0].map(String);
const a = await fingerprint(ours);
const b = await fingerprint(theirs);
if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`files differ: ${a} vs ${b}`);

// ---- read ----
const duckAggregate = (path) => `SELECT sum(id), sum(team_id), max(ts), sum(length(event)),
    sum(length(distinct_id)), sum(value) FROM read_parquet(${sql(path)})`;
for (const [scenario, path] of [['read_ours', ours], ['read_duckdb', theirs]]) {
  let ourRead = Infinity;
  for (let k = 0; k < repeat; k++) ourRead = Math.min(ourRead, runBench('read', path).seconds);
  const duckRead = await best(() => time(() => con.runAndReadAll(duckAggregate(path))));
  emit({ scenario, metric: 'hoglake_rows_per_s', value: Math.round(rows / ourRead), unit: 'rows/s',
    ratio: ratio(duckRead, ourRead) });
  emit({ scenario, metric: 'duckdb_rows_per_s', value: Math.round(rows / duckRead), unit: 'rows/s' });
}

// ---- writer memory vs row-group size (streaming generation) ----
const memPath = join(dir, 'memory.parquet');
for (const rgRows of [131072, 524288, 1048576]) {
  if (rgRows > rows) continue;
  const r = runBench('write', memPath, '--rows', String(rows), '--row-group-rows', String(rgRows), '--stream');
  emit({ scenario: 'writer_memory', metric: `max_rss_bytes@rg_rows=${rgRows}`, value: r.max_rss_bytes, unit: 'bytes',
    row_group_bytes: r.max_row_group_bytes, row_group_compressed_bytes: r.max_row_group_compressed_bytes,
    rss_over_row_group: ratio(r.max_rss_bytes, r.max_row_group_bytes) });
}

if (!args.includes('--dir')) rmSync(dir, { recursive: true, force: true });
