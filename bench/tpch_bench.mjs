// TPC-H benchmark: the 22 queries (tests/tpch/queries) on our SQL engine
// (tests/tpch/tpch_runner) vs DuckDB (@duckdb/node-api 1.5.6 from
// tests/interop/node_modules) over the same Parquet files, in the same run.
// Not part of CI (no CTest registration): it needs minutes and scale factor 1.
//
//   node bench/tpch_bench.mjs [--sf 1] [--cache DIR] [--repeat N] [--threads T]
//        [--query q01,q06] [--timeout S] [--memory-limit-gb G] [--no-cold]
//        [--runner PATH]
//
// --cache (or HOGLAKE_TPCH_CACHE; default /tmp/hoglake-tpch-cache) holds one
// folder per scale factor, sf<SF>/, generated once by tpchgen-cli from
// tests/interop/python/.venv (install_python_packages) and reused after.
// --threads (default: the machine's cores) is given to both engines: DuckDB
// `SET threads`, tpch_runner --threads. --runner defaults to
// build/tests/tpch/tpch_runner. --memory-limit-gb (default 8) caps each
// tpch_runner's address space (--memory-limit-mb): a plan whose
// intermediate results explode fails instead of filling the shared machine.
//
// Per query:
//   warm  best of --repeat runs (default 3) after one warm-up run: ours in
//         one tpch_runner process (--warmup 1 --repeat N), DuckDB on one
//         connection whose views were already bound.
//   cold  the first run after `echo 3 > /proc/sys/vm/drop_caches` (when that
//         is refused: the first run in a fresh process/instance, page cache
//         warm, and the lines say "first_run"): ours a fresh tpch_runner
//         (tables registered, then the query timed), DuckDB a fresh
//         in-memory instance (views created, then the query timed).
// Only the query is timed (Session::Execute with its batches materialized;
// DuckDB runAndReadAll). A query our engine fails, that runs past
// --timeout seconds (default 300, per runner process) or out of the memory
// limit is reported (with the end of the runner's stderr) and left
// out of the ratios; a row count that differs from DuckDB's is reported and
// the query left out too (tests/tpch/tpch_check.test.mjs checks values).
//
// Output: JSON lines {scenario, metric, value, unit[, ratio]} on stdout,
// progress on stderr. ratio = our seconds ÷ DuckDB's (below 1: we are
// faster). Scenarios: "setup"; "qNN" with metrics warm_hoglake_s,
// warm_duckdb_s (ratio on the first), cold_hoglake_s, cold_duckdb_s, and
// "failed"/"rows_differ" lines; "summary" with the geometric means of the
// warm and cold ratios over the queries that ran on both.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const sf = opt('--sf', '1');
const cache = resolve(opt('--cache', process.env.HOGLAKE_TPCH_CACHE ?? '/tmp/hoglake-tpch-cache'));
const repeat = Number(opt('--repeat', '3'));
const threads = Number(opt('--threads', String(cpus().length)));
const timeoutS = Number(opt('--timeout', '300'));
const memoryLimitGb = Number(opt('--memory-limit-gb', '8'));
const cold = !args.includes('--no-cold');
const runner = resolve(opt('--runner', join(repo, 'build/tests/tpch/tpch_runner')));
const queriesDir = join(repo, 'tests/tpch/queries');
const tpchgen = join(repo, 'tests/interop/python/.venv/bin/tpchgen-cli');
const TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'];

const emit = (line) => console.log(JSON.stringify(line));
const progress = (s) => process.stderr.write(`tpch_bench: ${s}\n`);
const die = (s) => {
  process.stderr.write(`tpch_bench: ${s}\n`);
  process.exit(1);
};
const round = (x) => Number(x.toFixed(4));

if (!existsSync(runner)) die(`no runner at ${runner} (ninja -C build tpch_runner)`);
const allQueries = readdirSync(queriesDir).filter((f) => /^q\d\d\.sql$/.test(f)).sort()
  .map((f) => f.replace(/\.sql$/, ''));
const queries = opt('--query', null)?.split(',').filter(Boolean) ?? allQueries;

// ---- data: generated once per scale factor ------------------------------------
const data = join(cache, `sf${sf}`);
const marker = join(data, '.complete');
if (!existsSync(marker)) {
  if (!existsSync(tpchgen)) die(`no ${tpchgen} (source scripts/lib.sh; install_python_packages)`);
  progress(`generating scale factor ${sf} into ${data}`);
  mkdirSync(data, { recursive: true });
  execFileSync(tpchgen, ['parquet', '-s', sf, `--output-dir=${data}`, '--overwrite'], { stdio: 'inherit' });
  writeFileSync(marker, `tpchgen-cli parquet -s ${sf}\n`);
}

// ---- page cache --------------------------------------------------------------
const dropCaches = () => {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
};
const coldKind = cold ? (dropCaches() ? 'page_cache_dropped' : 'first_run') : 'none';

// ---- DuckDB ------------------------------------------------------------------
const require = createRequire(join(repo, 'tests/interop/package.json'));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve('@duckdb/node-api')).href);
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
async function duckConnection() {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  await con.run(`SET threads = ${threads}`);
  for (const t of TABLES) {
    await con.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet(${sqlString(join(data, `${t}.parquet`))})`);
  }
  return { instance, con };
}
const seconds = async (fn) => {
  const start = process.hrtime.bigint();
  const out = await fn();
  return [Number(process.hrtime.bigint() - start) / 1e9, out];
};
const duck = await duckConnection();
const duckVersion = (await duck.con.runAndReadAll('SELECT version()')).getRows()[0][0];
const duckThreads = Number((await duck.con.runAndReadAll(`SELECT current_setting('threads')`)).getRows()[0][0]);

// ---- ours --------------------------------------------------------------------
// One tpch_runner process; its JSON line, or {error} (failure or time-out).
function runOurs(query, extra) {
  const run = spawnSync(runner, ['--data', data, '--query', query, '--no-rows', '--threads', String(threads),
    '--memory-limit-mb', String(Math.round(memoryLimitGb * 1024)), ...extra],
  { encoding: 'utf8', timeout: timeoutS * 1000, killSignal: 'SIGKILL', maxBuffer: 1 << 26 });
  if (run.error?.code === 'ETIMEDOUT') return { error: `timed out after ${timeoutS} s` };
  const line = run.stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) {
    const tail = run.stderr.trim().split('\n').slice(-2).join(' | ');
    return { error: `tpch_runner exited with ${run.status ?? run.signal}: ${tail}` };
  }
  return JSON.parse(line);
}

emit({ scenario: 'setup', metric: 'scale_factor', value: Number(sf), unit: 'sf', data, threads,
  duckdb_threads: duckThreads, duckdb_version: duckVersion, repeat, cold: coldKind, timeout_s: timeoutS,
  memory_limit_gb: memoryLimitGb });

const warmRatios = [];
const coldRatios = [];
for (const q of queries) {
  const sql = readFileSync(join(queriesDir, `${q}.sql`), 'utf8');
  progress(`${q}: warm`);
  const ours = runOurs(q, ['--warmup', '1', '--repeat', String(repeat)]);
  // DuckDB warm: one warm-up, then best of `repeat`.
  let duckRows = 0;
  let duckWarm = Infinity;
  for (let k = 0; k <= repeat; k++) {
    const [s, reader] = await seconds(() => duck.con.runAndReadAll(sql));
    duckRows = reader.currentRowCount;
    if (k > 0) duckWarm = Math.min(duckWarm, s);
  }
  if (ours.error) {
    emit({ scenario: q, metric: 'failed', value: 1, unit: 'bool', error: ours.error, warm_duckdb_s: round(duckWarm) });
    continue;
  }
  if (ours.row_count !== duckRows) {
    emit({ scenario: q, metric: 'rows_differ', value: ours.row_count, unit: 'rows', duckdb_rows: duckRows });
    continue;
  }
  emit({ scenario: q, metric: 'warm_hoglake_s', value: round(ours.seconds), unit: 's', ratio: round(ours.seconds / duckWarm) });
  emit({ scenario: q, metric: 'warm_duckdb_s', value: round(duckWarm), unit: 's' });
  warmRatios.push(ours.seconds / duckWarm);

  if (!cold) continue;
  progress(`${q}: cold`);
  if (coldKind === 'page_cache_dropped') dropCaches();
  const oursCold = runOurs(q, []);
  if (coldKind === 'page_cache_dropped') dropCaches();
  const fresh = await duckConnection();
  const [duckCold] = await seconds(() => fresh.con.runAndReadAll(sql));
  fresh.con.closeSync();
  fresh.instance.closeSync();
  if (oursCold.error) {
    emit({ scenario: q, metric: 'cold_failed', value: 1, unit: 'bool', error: oursCold.error });
    continue;
  }
  emit({ scenario: q, metric: 'cold_hoglake_s', value: round(oursCold.seconds), unit: 's',
    ratio: round(oursCold.seconds / duckCold), cold: coldKind });
  emit({ scenario: q, metric: 'cold_duckdb_s', value: round(duckCold), unit: 's', cold: coldKind });
  coldRatios.push(oursCold.seconds / duckCold);
}

const geomean = (v) => Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length);
if (warmRatios.length) {
  emit({ scenario: 'summary', metric: 'warm_geomean_ratio', value: round(geomean(warmRatios)), unit: 'ratio',
    queries: warmRatios.length });
}
if (coldRatios.length) {
  emit({ scenario: 'summary', metric: 'cold_geomean_ratio', value: round(geomean(coldRatios)), unit: 'ratio',
    queries: coldRatios.length, cold: coldKind });
}
