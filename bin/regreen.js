#!/usr/bin/env node
// The built package runs dist/; a checkout without a build runs the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/src/entrypoints/cli.js', import.meta.url);
const sources = new URL('../src/entrypoints/cli.ts', import.meta.url);
let main;
if (existsSync(built) && !existsSync(sources)) ({ main } = await import(built.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/entrypoints/cli.ts'));
}
process.exitCode = await main(process.argv);
