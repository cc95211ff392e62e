/**
 * How much there is to read: lines of production code (src/ and server/, tests left out) and
 * of docs (README.md and docs/), counted over the files git tracks.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { BenchModule } from './types';

const PRODUCTION = /^(src|server)\/.*\.(ts|tsx)$/;
const TEST = /\.test\.(ts|tsx)$/;
const DOCS = /^(README\.md|docs\/.*\.md)$/;

function linesOf(files: string[]): number {
  return files.reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').length - 1, 0);
}

export const codeSizeBench: BenchModule = {
  title: 'code size',
  async run() {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n');
    const production = files.filter((file) => PRODUCTION.test(file) && !TEST.test(file));
    const docs = files.filter((file) => DOCS.test(file));
    return [
      {
        name: 'lines of production code (src/, server/; tests left out)',
        value: linesOf(production),
        unit: 'count',
        note: `${production.length} files`,
      },
      {
        name: 'lines of docs (README.md, docs/)',
        value: linesOf(docs),
        unit: 'count',
        note: `${docs.length} files`,
      },
    ];
  },
};
