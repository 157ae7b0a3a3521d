/**
 * Run in a child by `test/security/recogniser-growth.test.ts`: one family of recognisers over
 * logs in which one failing line repeats `copies` times, each recogniser called directly (the
 * between-recogniser budget of `recogniseFailures` would skip the later ones on a big log).
 */
import { DOTNET } from '../../src/intake/formats/dotnet.ts';
import { GO } from '../../src/intake/formats/go.ts';
import { JAVASCRIPT } from '../../src/intake/formats/javascript.ts';
import { JVM } from '../../src/intake/formats/jvm.ts';
import { NATIVE } from '../../src/intake/formats/native.ts';
import { OTHER } from '../../src/intake/formats/other.ts';
import { PYTHON } from '../../src/intake/formats/python.ts';
import { RUST } from '../../src/intake/formats/rust.ts';
import type { LogLine, Recogniser } from '../../src/intake/formats/types.ts';

const FAMILIES: Record<string, readonly Recogniser[]> = {
  JAVASCRIPT,
  PYTHON,
  GO,
  RUST,
  JVM,
  NATIVE,
  DOTNET,
  OTHER,
};

export interface Shape {
  readonly head?: readonly string[];
  /** The repeated line(s), `$` numbered per copy. */
  readonly unit: readonly string[];
  readonly tail?: readonly string[];
}

/** How many failures each shape's log gave, over all the family's recognisers. */
export const recogniseShapes = (family: string, shapes: readonly Shape[], copies: number) =>
  shapes.map(({ head = [], unit, tail = [] }) => {
    const texts = [...head];
    for (let i = 0; i < copies; i += 1)
      for (const line of unit) texts.push(line.replaceAll('$', String(i)));
    texts.push(...tail);
    const lines: LogLine[] = texts.map((text, i) => ({ line: i + 1, text }));
    return (FAMILIES[family] ?? []).reduce((sum, recognise) => sum + recognise(lines).length, 0);
  });
