/**
 * Writes docs/machines/README.md: each machine's states and transitions, counted on the
 * machine, the paths its model test generates, counted from the test list of the model
 * project (the paths come from each test's own events, so only the test run knows them), and
 * its file's mutation score from the last `npm run mutation` (`npm run figures`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { AnyStateMachine } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { DIAGRAM_DIR, machinesOfSources } from './machineDiagrams';

/** The states of a machine (the root left out) and its transitions, `always` ones included. */
export function sizeOf(machine: AnyStateMachine): { states: number; transitions: number } {
  const nodes = getStateNodes(machine.root).filter((node) => node !== machine.root);
  const transitions = new Set(
    [machine.root, ...nodes].flatMap((node) => [
      ...[...node.transitions.values()].flat(),
      ...(node.always ?? []),
    ]),
  );
  return { states: nodes.length, transitions: transitions.size };
}

/** How many generated paths each `describeModel` of the model project replays, by name. */
function pathCounts(): Map<string, number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'machine-figures-'));
  const file = path.join(dir, 'tests.json');
  try {
    execFileSync('npx', ['vitest', 'list', '--project', 'model', `--json=${file}`], {
      stdio: 'ignore',
    });
    const tests = JSON.parse(readFileSync(file, 'utf8')) as { name: string }[];
    const counts = new Map<string, number>();
    for (const { name } of tests) {
      const model = /^(.+) \(model\) > path: /.exec(name);
      if (model) counts.set(model[1]!, (counts.get(model[1]!) ?? 0) + 1);
    }
    return counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Stryker's score: killed (or timed out) among the mutants that were run. */
function scoreOf(mutants: { status: string }[]): string {
  const count = (...statuses: string[]) =>
    mutants.filter((mutant) => statuses.includes(mutant.status)).length;
  const detected = count('Killed', 'Timeout');
  const valid = detected + count('Survived', 'NoCoverage');
  const score = valid === 0 ? 'no mutant' : `${((100 * detected) / valid).toFixed(1)} %`;
  return `${score} (${detected}/${valid})`;
}

/** The score of each mutated file by its name, and of them all under `ALL`. */
function mutationScores(): Map<string, string> {
  const report = 'test-results/mutation/mutation.json';
  if (!existsSync(report)) return new Map();
  const { files } = JSON.parse(readFileSync(report, 'utf8')) as {
    files: Record<string, { mutants: { status: string }[] }>;
  };
  const scores = new Map(
    Object.entries(files).map(([file, { mutants }]) => [path.basename(file), scoreOf(mutants)]),
  );
  scores.set(ALL, scoreOf(Object.values(files).flatMap(({ mutants }) => mutants)));
  return scores;
}

const ALL = '*';

async function main(): Promise<void> {
  const paths = pathCounts();
  const scores = mutationScores();
  const rows = (await machinesOfSources())
    .map(({ file, machine }) => ({
      id: machine.id,
      ...sizeOf(machine),
      paths: paths.get(machine.id) ?? 'no model test',
      score: scores.get(file) ?? 'not run',
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const page = [
    '# Machines',
    '',
    'Each machine of src/machines has its diagram here, drawn by `npm run diagrams`. Its model',
    'test (test/model/<machine>.test.ts) replays a path to every state and one more for every',
    'transition out of it; the mutation score (killed among the mutants run, static ones left',
    'out) is that of the last `npm run mutation`. Written by `npm run figures`; do not edit.',
    '',
    '| Machine | States | Transitions | Generated paths | Mutation score |',
    '| --- | --: | --: | --: | --: |',
    ...rows.map(
      (row) =>
        `| [${row.id}](${row.id}.md) | ${row.states} | ${row.transitions} | ${row.paths} | ${row.score} |`,
    ),
    `| all of src/machines, the form rules included | | | | ${scores.get(ALL) ?? 'not run'} |`,
    '',
  ].join('\n');
  const file = path.join(DIAGRAM_DIR, 'README.md');
  const options = await resolveConfig(file);
  writeFileSync(file, await format(page, { ...options, filepath: file }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
