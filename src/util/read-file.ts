import { readFileSync } from 'node:fs';
import { RegreenError } from '../errors.ts';

/** A file a person named on the command line: its text, or a usage error that says which and why. */
export const readNamedFile = (file: string, what: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new RegreenError(
      'usage',
      `cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { cause: error },
    );
  }
};
