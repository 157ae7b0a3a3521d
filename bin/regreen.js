#!/usr/bin/env node
// The built package runs its bundle (dist/regreen.mjs and its chunks, not hundreds of modules); a checkout
// without a build runs the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/regreen.mjs', import.meta.url);
const sources = new URL('../src/entrypoints/cli.ts', import.meta.url);
if (existsSync(bundle) && !existsSync(sources)) await import(bundle.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/entrypoints/cli.ts');
  process.exitCode = await main(process.argv);
}
