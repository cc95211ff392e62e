/**
 * A machine file pastes into the Stately editor as it is only when its machine needs nothing
 * the editor cannot resolve: at run time the file may import xstate alone (type imports are
 * erased). Checked on the source with the TypeScript parser, so a new import fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** The card flows whose files are kept pasteable. */
const PASTEABLE = ['invitation', 'petAdmin', 'registration'];

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
  for (const name of PASTEABLE) {
    it(`${name}: imports nothing but xstate at run time`, () => {
      const file = path.join(__dirname, '../../src/machines', `${name}.ts`);
      expect(runtimeImports(file)).toEqual(['xstate']);
    });
  }
});
