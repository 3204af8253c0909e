import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import * as ts from 'typescript';

/**
 * The import cycles among `files` (paths relative to `root`): each cycle is a strongly connected set of
 * two or more files, reached through relative imports and re-exports, type-only ones included (which
 * `import-x/no-cycle` skips). Imports of packages (`@leadflow/…`) are left to Nx's project-level check.
 */
export function importCycles(root: string, files: readonly string[]): string[][] {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = normalize(join(dirname(file), fileName));
      const target = [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => known.has(candidate));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  // Tarjan's strongly connected components, iterative enough for a few thousand files.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
}
