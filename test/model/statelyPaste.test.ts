/**
 * A machine file pastes into the Stately editor as it is only when its machine needs nothing
 * the editor cannot resolve: at run time the file may import xstate alone (type imports are
 * erased). Checked on the source with the TypeScript parser, so a new import fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { machinesOf } from '../../scripts/machineDiagrams';

const DIR = path.join(__dirname, '../../src/machines');

/**
 * Files of the folder that hold no machine, so need not paste: the shared form rules that the
 * app gives the registration machine through `.provide()`.
 */
const NOT_MACHINES = ['registrationRules.ts'];

const modules = import.meta.glob<Record<string, unknown>>('../../src/machines/*.ts', {
  eager: true,
});
const machineFiles = [...new Set(machinesOf(modules).map(({ file }) => file))].sort();

/** The modules a file imports values from (type-only imports left out). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.filter(ts.isImportDeclaration).flatMap((declaration) => {
    const clause = declaration.importClause;
    if (!clause || clause.isTypeOnly) return [];
    const named = clause.namedBindings;
    const values =
      Boolean(clause.name) ||
      (named !== undefined &&
        (ts.isNamespaceImport(named) || named.elements.some((element) => !element.isTypeOnly)));
    return values ? [(declaration.moduleSpecifier as ts.StringLiteral).text] : [];
  });
}

describe('machine files paste into the Stately editor', () => {
  it('every file of src/machines holds a machine, but the ones said to hold none', () => {
    const files = readdirSync(DIR).filter((name) => name.endsWith('.ts'));
    expect(files.filter((name) => !NOT_MACHINES.includes(name)).sort()).toEqual(machineFiles);
  });

  for (const file of machineFiles) {
    it(`${file}: imports nothing but xstate at run time`, () => {
      expect(runtimeImports(path.join(DIR, file))).toEqual(['xstate']);
    });
  }
});
