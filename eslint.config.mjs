// Lint: typescript-eslint, plus the layer boundaries of DESIGN.md enforced as import rules.
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'Only src/extension/ may import vscode (DESIGN.md layers).' };
const nodeOnly = ['fs', 'fs/promises', 'node:fs', 'node:fs/promises', 'child_process', 'node:child_process', 'http', 'https', 'net', 'node:http', 'node:https', 'node:net', 'chokidar', 'openai'];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test/fixtures/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    // Type-aware rules (vscode-eslint sets the first two): a promise is awaited, returned or voided on purpose, never
    // handed to a callback that ignores it, and a switch over a union names every member.
    languageOptions: { parserOptions: { project: ['./tsconfig.json', './tsconfig.browser.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Lines are long here (one statement, one line), but not unbounded; text, patterns and links may run on.
      'max-len': ['error', { code: 180, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
      'no-restricted-imports': ['error', { paths: [noVscode] }],
    },
  },
  {
    files: ['src/extension/**/*.ts', 'test/integration/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/core/**/*.ts', 'src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noVscode, ...nodeOnly.map((name) => ({ name, message: 'src/core and src/webview stay pure: no file system, processes or network.' }))],
      }],
    },
  },
  {
    // Functions handed to page.evaluate run in the browser: a Node import of `performance` there compiles to a module
    // reference the page lacks (the graph-view bench hung on exactly that). Use the global.
    files: ['bench/**/*.ts', 'test/browser/**/*.ts', 'test/e2e/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noVscode, { name: 'node:perf_hooks', importNames: ['performance'], message: 'Use the global performance: page.evaluate callbacks run in the browser.' }, { name: 'perf_hooks', importNames: ['performance'], message: 'Use the global performance: page.evaluate callbacks run in the browser.' }],
      }],
    },
  },
);
