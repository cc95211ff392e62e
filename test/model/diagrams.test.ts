import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGRAM_DIR, diagramPage, machinesOf } from '../../scripts/machineDiagrams';

const modules = import.meta.glob<Record<string, unknown>>('../../src/machines/*.ts', {
  eager: true,
});
const machines = machinesOf(modules);

describe('diagrams in docs/machines', () => {
  for (const { file, machine } of machines) {
    it(`${machine.id}: the committed diagram is the machine's (npm run diagrams redraws it)`, () => {
      const committed = readFileSync(path.join(DIAGRAM_DIR, `${machine.id}.md`), 'utf8');
      expect(committed).toBe(diagramPage(file, machine));
    });
  }

  it('holds no diagram of a machine that is gone', () => {
    // README.md is the table of figures (npm run figures), not a diagram.
    const pages = readdirSync(DIAGRAM_DIR).filter((name) => name !== 'README.md');
    expect(pages.sort()).toEqual(machines.map(({ machine }) => `${machine.id}.md`).sort());
  });
});
