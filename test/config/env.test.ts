import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import {
  actionInputOf,
  defaultDataDir,
  settingsOf,
  unknownSettings,
} from '../../src/config/env.ts';
import { budgetFlags, operatorCeilings } from '../../src/config/operator-bounds.ts';
import { runCli } from '../support/cli.ts';

describe('the environment, read in one place', () => {
  it('parses each variable into a typed setting', () => {
    const settings = settingsOf({
      REGREEN_MAX_TURNS: '12',
      REGREEN_MAX_COST_USD: '2.5',
      REGREEN_SPEND_CAP_USD: '0',
      REGREEN_MAX_ATTEMPTS: '0',
      PORT: '8080',
      REGREEN_LOG_LEVEL: 'debug',
      REGREEN_MODEL: '',
    });
    expect(settings).toMatchObject({
      maxTurns: 12,
      maxCostUsd: 2.5,
      spendCapUsd: 0,
      maxAttempts: 0,
      port: 8080,
      logLevel: 'debug',
    });
    // An empty variable is an unset one.
    expect(settings.model).toBeUndefined();
    expect(operatorCeilings({ REGREEN_MAX_TURNS: '12' }).budget.maxTurns).toBe(12);
  });

  it('refuses a bad value with the variable named, never falling back to the default', () => {
    expect(() => settingsOf({ REGREEN_MAX_TURNS: 'lots' })).toThrow(
      /REGREEN_MAX_TURNS must be a whole number above 0, not "lots"/,
    );
    expect(() => operatorCeilings({ REGREEN_MAX_COST_USD: '-1' })).toThrow(/REGREEN_MAX_COST_USD/);
    expect(() => settingsOf({ REGREEN_LOG_LEVEL: 'loud' })).toThrow(
      /REGREEN_LOG_LEVEL must be one of/,
    );
  });

  it('a budget flag is worded as its variable, with an example to copy (a new user, #37)', () => {
    expect(() => budgetFlags({ maxTurns: 'abc' })).toThrow(
      '--max-turns must be a whole number above 0, not "abc". For example: --max-turns 30',
    );
    expect(() => budgetFlags({ maxTurns: '2.5' })).toThrow(/--max-turns must be a whole number/);
    expect(() => budgetFlags({ maxCost: '0' })).toThrow(
      '--max-cost must be a number above 0, not "0". For example: --max-cost 2',
    );
    expect(budgetFlags({ maxTurns: '12', maxCost: '0.5' })).toEqual({
      maxTurns: 12,
      maxCostUsd: 0.5,
    });
  });

  it('reads one environment object once', () => {
    const env = { REGREEN_MAX_WORKERS: '2' };
    expect(settingsOf(env)).toBe(settingsOf(env));
  });

  it('derives the data dir and Action inputs from the same reader', () => {
    expect(defaultDataDir({ HOME: '/home/u' })).toBe('/home/u/.cache/regreen');
    expect(defaultDataDir({ HOME: '/home/u', XDG_CACHE_HOME: '/c' })).toBe('/c/regreen');
    expect(defaultDataDir({ REGREEN_DATA_DIR: '/d' })).toBe('/d');
    expect(actionInputOf({ 'INPUT_MAX-COST': ' 3 ' })('max-cost')).toBe('3');
  });

  it('the CLI stops with a usage error naming every bad variable at once (#37)', async () => {
    // Any command that runs (help and --version load no settings at all).
    const run = await runCli(['jobs', 'list'], {
      REGREEN_MAX_WORKERS: 'many',
      REGREEN_LOG_LEVEL: 'loud',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^regreen: REGREEN_LOG_LEVEL must be one of .*, not "loud"; REGREEN_MAX_WORKERS must be a whole number above 0, not "many"$/m,
    );
  });

  it('a mistyped REGREEN_* variable is named with the setting it was likely meant to be (#37)', async () => {
    expect(
      unknownSettings({ REGREEN_MAX_DISKMB: '64', REGREEN_MAX_DISK_MB: '64', HOME: '/h' }),
    ).toEqual([
      "REGREEN_MAX_DISKMB is not a setting regreen reads, so it does nothing: did you mean REGREEN_MAX_DISK_MB? (the README's configuration reference lists them)",
    ]);
    expect(unknownSettings({ REGREEN_SOMETHING_ELSE_ENTIRELY: '1' })[0]).not.toMatch(
      /did you mean/,
    );
    const data = path.join(os.tmpdir(), `regreen-env-${process.pid}`);
    const run = await runCli(['jobs', 'list', '--data-dir', data], { REGREEN_MAX_COST_UDS: '3' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^\[regreen\] warn: REGREEN_MAX_COST_UDS is not a setting regreen reads, so it does nothing: did you mean REGREEN_MAX_COST_USD\?/m,
    );
  });
});
