/**
 * More rules of `no-runner-tampering` (the first are in
 * `runner-tampering-rules.ts`): a process ended by any name of the call that
 * ends it, and code that tells the run it is in apart — by what regreen
 * itself sets for its runs, or by the path of the executable a runner built.
 */
import { ANY, GO, GO_MAIN, PY, RB, type Pattern } from './runner-tampering-rules.ts';

/** A Ruby program's own files (`bin/`, `exe/`, a Rakefile): they may exit. */
const RUBY_PROGRAM = /(^|\/)(bin|exe)\/|(^|\/)Rakefile$|\.rake$/;

/** The variables and values regreen sets for its runs alone (`src/workspace/sandbox/shared.ts`, the counted runs). */
const REGREEN_RUN =
  /PYTHONPYCACHEPREFIX|regreen-judged|regreen-report|\bREGREEN_\w*|PYTEST_ADDOPTS/;

export const DETECTION_PATTERNS: readonly Pattern[] = [
  {
    // Any spelling of the call: `from os import _exit as done`, `o._exit`, `getattr(os, "_exit")`.
    files: PY,
    lines:
      /\b_exit\b|\bfrom\s+(?:os|posix|nt)\s+import\b[^#]*\b(?:abort|exec\w*|kill|killpg)\b|\b(?:os|posix|nt)\s*\.\s*killpg?\b|\bsignal\s*\.\s*(?:raise_signal|pthread_kill)\b/,
    why: 'ends or replaces the process (by any name of the call)',
  },
  {
    files: PY,
    lines: /_exit|^(?:abort|kill|killpg|exec\w*)$/,
    literals: true,
    why: 'ends or replaces the process (names the call in a string)',
  },
  {
    files: ANY,
    lines: REGREEN_RUN,
    why: "detects regreen's runs (reads what regreen sets for them)",
  },
  {
    files: ANY,
    lines: REGREEN_RUN,
    literals: true,
    why: "detects regreen's runs (names what regreen sets for them in a string)",
  },
  {
    files: GO,
    lines: /\bos\s*\.\s*Executable\b/,
    notIn: GO_MAIN,
    why: 'reads its own executable from a library (the test binary is built where go test works)',
  },
  {
    files: ANY,
    lines: /\/proc\/(?:self|thread-self|\d+)\/(?:exe|cmdline|environ)\b|go-build/,
    literals: true,
    why: "detects the test binary (its executable's path, its command line)",
  },
  {
    files: RB,
    lines:
      /\bexit!|\b(?:Process|Kernel)\s*\.\s*(?:exit!?|abort|kill|exec)\b|\bat_exit\b|(?:^|[^.\w:])(?:exit|abort)\b(?![?!:])/,
    notPath: RUBY_PROGRAM,
    why: 'ends the process from library code',
  },
];
