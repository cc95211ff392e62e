// @vitest-environment node
/**
 * Docs a reader can follow. No comment or doc cites a document that is not in the repository
 * (a product specification or a design document by section): each states the rule it relies
 * on. A section of a published standard (NIST SP 800-63B, an RFC, ISO or JIS) may be cited.
 * And every repository path that docs/ and README.md name exists; a placeholder segment
 * (`<area>`, `NNNN`, `*`, `…`) is checked up to the folder that holds it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('.');
const SCANNED_FOR_CITATIONS = [
  'src',
  'server',
  'contract',
  'docs',
  'test',
  'e2e',
  'scripts',
  'bench',
  'README.md',
];
const TEXT_FILE = /\.(?:ts|tsx|js|mjs|md|sql|ftl|json|css|html|mmd)$/;

/** A section sign after a named standard: `NIST SP 800-63B §5.2.2`, `RFC 9110 §15.5`. */
const STANDARD_SECTION =
  /\b(?:NIST(?: SP)? [\w.-]+|RFC ?\d+|ISO(?:\/IEC)? ?[\d-]+(?::\d+)?|JIS [A-Z] ?\d+(?:-\d+)?)\s*\u00a7/g;
/** Citations of documents outside the repository (written with escapes so as not to match here). */
const CITATIONS: RegExp[] = [
  /\bspec\s*\u00a7/i,
  /\bdesign(?:\.md)?\s*\u00a7/i,
  /\bdesign\.md\b/i,
  /\u00a7/,
];

/** The top-level entries a doc's path may start with. */
const PATH_IN_TEXT =
  /(?<![\w/.@-])(?:src|server|test|docs|e2e|scripts|bench|public|\.ci)\/(?:[^\s`'"()[\]{},;|]|\{[^}\s]*\})*/g;
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;
const PLACEHOLDER = /[<>*…]|^N{2,}|\.\.\./;

/** `test/model/{a,b}.test.ts` names two files. */
function expanded(named: string): string[] {
  const brace = /\{([^}]*)\}/.exec(named);
  if (!brace) return [named];
  const [before, after] = [named.slice(0, brace.index), named.slice(brace.index + brace[0].length)];
  return (brace[1] ?? '').split(',').flatMap((choice) => expanded(before + choice + after));
}

function filesUnder(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return TEXT_FILE.test(entry) ? [entry] : [];
  return readdirSync(full, { withFileTypes: true }).flatMap((child) => {
    if (child.name === 'node_modules') return [];
    const relative = path.join(entry, child.name);
    return child.isDirectory()
      ? filesUnder(relative)
      : TEXT_FILE.test(child.name)
        ? [relative]
        : [];
  });
}

interface Finding {
  file: string;
  line: number;
  text: string;
}

function citations(file: string): Finding[] {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      const rest = text.replace(STANDARD_SECTION, '');
      return CITATIONS.some((pattern) => pattern.test(rest))
        ? [{ file, line: index + 1, text: text.trim() }]
        : [];
    });
}

/** The part of a named path that must exist: up to the first placeholder segment. */
function checkedPart(named: string): string {
  const cleaned = named
    .replace(/#.*$/, '')
    .replace(/:\d+(?::\d+)?$/, '')
    .replace(/[.:]+$/, '');
  const segments = cleaned.split('/');
  const firstPlaceholder = segments.findIndex((segment) => PLACEHOLDER.test(segment));
  return (firstPlaceholder === -1 ? segments : segments.slice(0, firstPlaceholder)).join('/');
}

function missingPaths(file: string): Finding[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return text.split('\n').flatMap((lineText, index) => {
    const named = [...lineText.matchAll(PATH_IN_TEXT)].flatMap((match) => expanded(match[0]));
    const linked = [...lineText.matchAll(MARKDOWN_LINK)]
      .map((match) => match[1] ?? '#')
      .filter((target) => !/^(?:[a-z]+:|#|\/)/i.test(target))
      .map((target) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), target)));
    return [...named, ...linked]
      .filter((named) => !existsSync(path.join(ROOT, checkedPart(named))))
      .map((named) => ({ file, line: index + 1, text: named }));
  });
}

const describeFinding = ({ file, line, text }: Finding) => `${file}:${line}: ${text}`;

describe('docs that are true', () => {
  it('cite no document that is not in the repository, only rules and published standards', () => {
    const found = SCANNED_FOR_CITATIONS.flatMap(filesUnder).flatMap(citations);
    expect(found.map(describeFinding)).toEqual([]);
  });

  it('name only paths that exist', () => {
    const docs = [...filesUnder('docs').filter((file) => file.endsWith('.md')), 'README.md'];
    expect(docs.length).toBeGreaterThan(10);
    const named = docs.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(PATH_IN_TEXT)]);
    expect(named.length).toBeGreaterThan(300);
    const found = docs.flatMap(missingPaths);
    expect(found.map(describeFinding)).toEqual([]);
  });

  it('flags a citation and a missing path, and lets a standard and a placeholder pass', () => {
    const rest = (line: string) => line.replace(STANDARD_SECTION, '');
    const cites = (line: string) => CITATIONS.some((pattern) => pattern.test(rest(line)));
    expect(cites('as the spec \u00a74 says')).toBe(true);
    expect(cites('see design\u002emd')).toBe(true);
    expect(cites('rule \u00a78 applies')).toBe(true);
    expect(cites('NIST SP 800-63B \u00a75.2.2 limits attempts')).toBe(false);
    expect(cites('RFC 9110 \u00a715.5.1')).toBe(false);
    expect(checkedPart('server/db/migrations/NNNN_<area>.sql')).toBe('server/db/migrations');
    expect(checkedPart('test/api/letterDelivery*.test.ts')).toBe('test/api');
    expect(checkedPart('server/app.ts:12')).toBe('server/app.ts');
    expect(expanded('test/model/{a,b}X.ts')).toEqual(['test/model/aX.ts', 'test/model/bX.ts']);
    expect(existsSync(path.join(ROOT, checkedPart('server/no-such-file.ts')))).toBe(false);
  });
});
