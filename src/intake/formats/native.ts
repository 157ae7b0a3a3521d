import { perLine, type Recogniser } from './types.ts';

const gcc = perLine(
  'gcc',
  /^\s*((?:[A-Za-z]:)?[^\s:]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|s|S)):(\d+)(?::\d+)?: (?:fatal )?error: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] }),
);

/**
 * `CMake Error at file:line (fn):` and `CMake Error: message`, read as
 * `/^CMake Error(?: at (\S+?):(\d+))?.*?(?::\s*(.*))?$/` would, by hand: the lazy
 * `.*?` before `(.*)` backtracks exponentially on a long line that does not end.
 * `.*?` and `(.*)` stop at a line break, `:\s*` crosses one: with breaks in the
 * line, the message can only follow the `:` before the blanks that hold them all.
 */
const DIGITS_AT = (text: string, at: number): string => {
  const digits = /\d*/y;
  digits.lastIndex = at;
  return digits.exec(text)?.[0] ?? '';
};

const cmakeError = (text: string): (string | undefined)[] | null => {
  if (!text.startsWith('CMake Error')) return null;
  const breaks = [...text.matchAll(/[\n\r\u2028\u2029]/g)].map((m) => m.index);
  let only: number | undefined;
  if (breaks.length > 0) {
    let blank = breaks.at(-1) ?? 0;
    while (blank > 0 && /\s/.test(text.charAt(blank - 1))) blank -= 1;
    if (blank > (breaks[0] ?? 0) || text.charAt(blank - 1) !== ':') return null;
    only = blank - 1;
  }
  const limit = only ?? text.length;
  let file: string | undefined;
  let line: string | undefined;
  let from = 'CMake Error'.length;
  if (text.startsWith(' at ', from)) {
    const start = from + 4;
    const end = start + (/^\S*/.exec(text.slice(start))?.[0].length ?? 0);
    for (let colon = text.indexOf(':', start + 1); colon > 0 && colon < end;) {
      const digits = DIGITS_AT(text, colon + 1);
      const length = Math.min(digits.length, limit - colon - 1);
      if (length >= 1) {
        [file, line, from] = [
          text.slice(start, colon),
          digits.slice(0, length),
          colon + 1 + length,
        ];
        break;
      }
      colon = text.indexOf(':', colon + 1);
    }
  }
  const colon = only ?? text.indexOf(':', from);
  return [text, file, line, colon < 0 ? undefined : text.slice(colon + 1).trimStart()];
};

const cmake = perLine('cmake', { exec: cmakeError }, (m) => ({
  ...(m[1] ? { file: m[1], line: m[2] } : {}),
  ...(m[3] ? { message: m[3] } : {}),
}));

/** The recognisers of this family, in the order they are tried. */
export const NATIVE: readonly Recogniser[] = [gcc, cmake];
