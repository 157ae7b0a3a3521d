/**
 * attack4: the operator's package index enters the sandbox "without its
 * credentials" — a URL's userinfo and a query parameter named like a secret
 * are cut — but private indexes just as often carry the token as a path
 * segment: Cloudsmith's entitlement URL
 * (`https://dl.cloudsmith.io/<TOKEN>/org/repo/python/simple/`), Gemfury's
 * (`https://pypi.fury.io/<TOKEN>/user/`, `https://npm-proxy.fury.io/<TOKEN>/user/`).
 * The sandbox reads it in the variable and in the pip.conf / npmrc regreen
 * writes into its home; the repository's test prints it into the output
 * the pull request quotes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, inSandbox } from './support.ts';

const temp = makeTempDir('regreen-attack4-index-');
let sandbox: Sandbox;

beforeAll(async () => {
  const home = path.join(temp.dir, 'home');
  mkdirSync(home, { recursive: true });
  // The operator's npmrc, Gemfury's documented form: the token is the path's first segment.
  writeFileSync(path.join(home, '.npmrc'), `registry=https://npm-proxy.fury.io/${CANARY}/acme/\n`);
  sandbox = await attackSandbox({
    root: temp.dir,
    workspace: path.join(temp.dir, 'data', 'jobs', 'j', 'workspace'),
    env: {
      HOME: home,
      PIP_INDEX_URL: `https://dl.cloudsmith.io/${CANARY}/acme/private/python/simple/`,
      CONTROL: 'control-value-visible',
    },
  });
}, 120_000);

afterAll(async () => {
  await sandbox?.dispose();
  temp.cleanup();
});

describe('attack4: an index URL whose token is a path segment', () => {
  it('reaches the sandbox neither in the variables nor in the client configuration it is given', async () => {
    const result = await inSandbox(
      sandbox,
      'env; cat "$HOME/.npmrc" "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf" 2>/dev/null; echo RAN',
    );
    expect(result.output).toContain('RAN');
    expect(result.output).toContain('PIP_INDEX_URL=');
    expect(result.output.split('\n').filter((line) => line.includes(CANARY))).toEqual([]);
  }, 120_000);
});
