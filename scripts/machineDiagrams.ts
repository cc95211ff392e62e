/**
 * Writes a Mermaid state diagram of every machine in src/machines into docs/machines/, drawn
 * from the machine itself so it cannot drift (`npm run diagrams`; test/model/diagrams.test.ts
 * fails when a committed diagram differs from its machine).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import type { getStateNodes } from 'xstate/graph';

type StateNode = ReturnType<typeof getStateNodes>[number];
type Transition = NonNullable<StateNode['always']>[number];

export const DIAGRAM_DIR = 'docs/machines';

/** Mermaid wants one flat namespace: a nested state is named by its whole path. */
const idOf = (node: StateNode) => node.path.join('_');

/** What starts a transition, in words a reader of the diagram knows from the code. */
function triggerOf(eventType: string): string {
  const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (outcome) return `${outcome[2]} ${outcome[1]}`;
  const timer = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (timer) return `after ${timer[1]}`;
  return eventType || 'always';
}

function guardOf(transition: Transition): string {
  const guard = transition.guard as { type?: string } | string | undefined;
  if (!guard) return '';
  const name = typeof guard === 'string' ? guard : guard.type;
  return name ? ` [${name}]` : ' [guard]';
}

function transitionsOf(node: StateNode): Transition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

function lines(node: StateNode, depth: number): string[] {
  const pad = '  '.repeat(depth);
  const out: string[] = [];
  const children = Object.values(node.states);
  if (node.initial?.target[0]) out.push(`${pad}[*] --> ${idOf(node.initial.target[0])}`);
  for (const child of children) {
    if (child.path.at(-1) !== idOf(child)) out.push(`${pad}state "${child.key}" as ${idOf(child)}`);
    if (Object.keys(child.states).length > 0) {
      out.push(`${pad}state ${idOf(child)} {`);
      out.push(...lines(child, depth + 1));
      out.push(`${pad}}`);
    }
    if (child.type === 'final') out.push(`${pad}${idOf(child)} --> [*]`);
  }
  for (const child of children) {
    for (const transition of transitionsOf(child)) {
      const label = `${triggerOf(transition.eventType)}${guardOf(transition)}`;
      for (const target of transition.target ?? [child])
        out.push(`${pad}${idOf(child)} --> ${idOf(target)}: ${label}`);
    }
  }
  return out;
}

/** The machine's states and transitions as a Mermaid state diagram. */
export function mermaidOf(machine: AnyStateMachine): string {
  const root = machine.root as unknown as StateNode;
  const rootTransitions = transitionsOf(root).flatMap((transition) =>
    (transition.target ?? []).map(
      (target) =>
        `  note right of ${idOf(target)}: from every state, ${triggerOf(transition.eventType)}${guardOf(transition)}`,
    ),
  );
  return ['stateDiagram-v2', ...lines(root, 1), ...rootTransitions].join('\n');
}

/** The page of one machine: a heading, where it lives, the diagram. */
export function diagramPage(file: string, machine: AnyStateMachine): string {
  return [
    `# ${machine.id}`,
    '',
    `Drawn from [src/machines/${file}](../../src/machines/${file}) by \`npm run diagrams\`; do not edit.`,
    '',
    '```mermaid',
    mermaidOf(machine),
    '```',
    '',
  ].join('\n');
}

/** Every machine exported from src/machines, with its file name. */
export function machinesOf(
  modules: Record<string, Record<string, unknown>>,
): { file: string; machine: AnyStateMachine }[] {
  return Object.entries(modules).flatMap(([modulePath, module]) =>
    Object.values(module)
      .filter(
        (value): value is AnyStateMachine =>
          typeof value === 'object' &&
          value !== null &&
          'root' in value &&
          'implementations' in value,
      )
      .map((machine) => ({ file: path.basename(modulePath), machine })),
  );
}

/** Every machine of src/machines, imported from its file. */
export async function machinesOfSources(): Promise<{ file: string; machine: AnyStateMachine }[]> {
  const dir = path.resolve('src/machines');
  const modules: Record<string, Record<string, unknown>> = {};
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts')))
    modules[file] = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<
      string,
      unknown
    >;
  return machinesOf(modules);
}

async function main(): Promise<void> {
  mkdirSync(DIAGRAM_DIR, { recursive: true });
  for (const { file, machine } of await machinesOfSources())
    writeFileSync(path.join(DIAGRAM_DIR, `${machine.id}.md`), diagramPage(file, machine));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
