/**
 * Where a server's CPU went, from a Linux `perf` recording of it (`perf record -F 999 -g -p
 * <pid>` while the bench loads a server started with BENCH_PERF_MAP=1): each sample counted to
 * the kernel, garbage collection, zlib or text decoding when it is there, else to the package of
 * the nearest JavaScript function on its stack. Usage: `npx tsx bench/perfShares.ts perf.data`.
 */
import { execFileSync } from 'node:child_process';

const NATIVE_PARTS: [RegExp, string][] = [
  [/\[kernel\.kallsyms\]/, 'the kernel (sockets, epoll)'],
  [/deflate|longest_match|compress_block|crc32|adler32|inflate|fill_window|_tr_/, 'gzip (zlib)'],
  [
    /Scaveng|MarkCompact|ConcurrentMarking|Heap::|GCTracer|Sweeper|Evacuat|MinorMark|IncrementalMarking/,
    'garbage collection',
  ],
  [/Utf8|StringBytes|String::Write/, 'UTF-8 text to and from JS strings'],
];

function partOfJs(frame: string): string {
  const where = frame.split('JS:')[1] ?? '';
  const dependency = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(where);
  if (dependency) return dependency[1]!;
  if (where.includes('build/server.mjs')) return 'our code';
  if (where.includes('async_hooks')) return 'async_hooks (AsyncLocalStorage)';
  if (/node:(internal\/)?(_http|http|net|streams|stream_base)/.test(where))
    return "Node's HTTP, sockets and streams";
  const builtin = /node:(internal\/)?([a-z_]+)/.exec(where);
  return builtin ? `node:${builtin[2]}` : 'other JavaScript';
}

/** The part one sample's stack (leaf first) is counted to. */
function partOf(stack: string[]): string {
  for (const frame of stack) {
    const native = NATIVE_PARTS.find(([pattern]) => pattern.test(frame));
    if (native) return native[1];
    if (frame.includes('JS:')) return partOfJs(frame);
  }
  return 'native, no JavaScript caller (V8 and libuv threads)';
}

const script = execFileSync(
  'perf',
  ['script', '-i', process.argv[2] ?? 'perf.data', '-F', 'ip,sym,dso'],
  {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  },
);
const counts = new Map<string, number>();
let total = 0;
for (const sample of script.split(/\n\s*\n/)) {
  const stack = sample
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (stack.length === 0) continue;
  const part = partOf(stack);
  counts.set(part, (counts.get(part) ?? 0) + 1);
  total += 1;
}
for (const [part, count] of [...counts].sort((a, b) => b[1] - a[1])) {
  process.stdout.write(`${((100 * count) / total).toFixed(1).padStart(5)} %  ${part}\n`);
}
process.stdout.write(`${total} samples\n`);
