import { perLine, type Recogniser } from './types.ts';

const rspec = perLine('rspec', /^rspec (\.\/\S+?):(\d+) # (.*)$/, (m) => ({
  file: m[1],
  line: m[2],
  test: m[3],
}));

const docker = perLine(
  'docker',
  /^(?:#\d+ )?(?:ERROR: failed to solve: (.*)|The command '(.*)' returned a non-zero code: \d+)$/,
  (m) => ({ message: m[1] ?? `'${m[2] ?? ''}' failed` }),
);

/** The recognisers of this family, in the order they are tried. */
export const OTHER: readonly Recogniser[] = [rspec, docker];
