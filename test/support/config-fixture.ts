import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOffByOneFixture } from '../../fixtures/build.ts';

/** The off-by-one fixture with a committed `.github/regreen.yml`. */
export const offByOneWithConfig = (dir: string, config: string): string => {
  buildOffByOneFixture(dir);
  mkdirSync(path.join(dir, '.github'), { recursive: true });
  writeFileSync(path.join(dir, '.github', 'regreen.yml'), config);
  execFileSync('git', ['add', '.github'], { cwd: dir });
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'regreen config'],
    { cwd: dir },
  );
  return dir;
};
