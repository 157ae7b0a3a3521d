import js from '@eslint/js';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'bin/**', 'action/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // The host parses text strangers control everywhere, not only in the checks: CI logs,
    // workflow YAML, repository files, a run's output, pull-request comments, kernel cells, a
    // model's patches. No pattern on the host may backtrack more than linearly, or one crafted
    // line holds regreen's event loop for minutes, where no time limit can fire.
    files: ['src/**/*.ts', 'tools/**/*.ts', 'checks/**/*.ts'],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error' },
  },
  {
    files: ['src/entrypoints/cli.ts', 'src/cli/**/*.ts', 'fixtures/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The JavaScript kernel's driver runs as plain Node inside the sandbox.
    files: ['tools/kernels/drivers/**/*.mjs', 'tools/debug/*.mjs', 'scripts/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, 'no-console': 'off' },
  },
);
