// Starts s3rver (npm, pinned in tests/interop/package-lock.json) on
// 127.0.0.1 with a free port, storing objects under the directory given as
// the first argument and with the buckets named by the remaining arguments.
// Prints "PORT <n>" once it is listening; exits when its stdin closes (so a
// crashed test never leaves it behind) or on SIGTERM.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../interop/package.json', import.meta.url));
const S3rver = require('s3rver');

const [directory, ...buckets] = process.argv.slice(2);
if (!directory) {
  console.error('usage: start_s3rver.mjs <directory> [bucket...]');
  process.exit(2);
}
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name })),
});
const { port } = await server.run();
process.stdout.write(`PORT ${port}\n`);

const stop = () => server.close(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
