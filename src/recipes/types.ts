import type { Logger } from '../logger.ts';
import type { ProvidedTools } from '../workspace/setup/provided-tools.ts';
import type { Sandbox } from '../workspace/sandbox/sandbox.ts';

/** The reproduced failure a recipe looks at. */
export interface RecipeInput {
  readonly workspace: string;
  readonly command: string;
  readonly output: string;
  readonly sandbox: Sandbox;
  readonly timeoutMs: number;
  readonly logger: Logger;
  /** PATH as the job sees it (to find language servers). */
  readonly path: string | undefined;
  /** The npm language servers regreen fetches on first use (default: only its own copies). */
  readonly provided?: ProvidedTools;
}

export interface RecipeApplied {
  readonly ok: boolean;
  readonly summary: string;
}

/** A deterministic fix, tried before any model. */
export interface Recipe {
  readonly name: string;
  /** Files this recipe may change even though they are protected (e.g. the lockfile). */
  readonly allowsProtected: readonly string[];
  applies(input: RecipeInput): boolean;
  apply(input: RecipeInput): Promise<RecipeApplied>;
}
