import { perLine, type Recogniser } from './types.ts';

const gcc = perLine(
  'gcc',
  /^\s*((?:[A-Za-z]:)?[^\s:]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|s|S)):(\d+)(?::\d+)?: (?:fatal )?error: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] }),
);

const cmake = perLine('cmake', /^CMake Error(?: at (\S+?):(\d+))?.*?(?::\s*(.*))?$/, (m) => ({
  ...(m[1] ? { file: m[1], line: m[2] } : {}),
  ...(m[3] ? { message: m[3] } : {}),
}));

/** The recognisers of this family, in the order they are tried. */
export const NATIVE: readonly Recogniser[] = [gcc, cmake];
