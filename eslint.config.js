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
    // A pattern may not backtrack super-linearly, nor move super-linearly (a match tried from
    // every place of a long line, each attempt reading to its end). Neither rule can read a
    // pattern built at run time: none is, but through `pattern` (src/util/pattern.ts), where
    // text is escaped and only RegExp literals, which these rules read, add syntax.
    files: ['src/**/*.ts', 'tools/**/*.ts', 'checks/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='RegExp'], CallExpression[callee.name='RegExp']",
          message:
            'A pattern is built at run time only through `pattern` (src/util/pattern.ts), which escapes text: text from a log or a repository never becomes pattern syntax.',
        },
        {
          selector:
            "NewExpression[callee.property.name='RegExp'], CallExpression[callee.property.name='RegExp']",
          message: 'A pattern is built at run time only through `pattern` (src/util/pattern.ts).',
        },
      ],
    },
  },
  {
    files: ['src/util/pattern.ts'],
    rules: { 'no-restricted-syntax': 'off' },
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
