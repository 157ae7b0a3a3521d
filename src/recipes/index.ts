import { eslintFixRecipe } from './eslint-fix.ts';
import { lockfileSyncRecipe } from './lockfile-sync.ts';
import { missingImportRecipe } from './missing-import.ts';
import { prettierRecipe } from './prettier.ts';
import type { Recipe } from './types.ts';

/** Recipes in the order they are tried. */
export const RECIPES: readonly Recipe[] = [
  lockfileSyncRecipe,
  prettierRecipe,
  eslintFixRecipe,
  missingImportRecipe,
];
