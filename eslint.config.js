// Lint for src/, client/, tools/, bench/ and test/: typescript-eslint's type-aware recommended rules, no import
// cycles, and the layer boundaries of docs/architecture.md (each layer imports only the ones below it).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const layer = (name) => `./src/${name}`;

export default defineConfig(
  globalIgnores([
    '**/node_modules/',
    'dist/',
    'coverage/',
    '.threadline/',
    '.cache/',
    'src/api/generated/',
    'src/viewer/generated/',
    'src/graph/generated/',
    'client/generated/',
  ]),
  {
    files: ['src/**/*.ts', 'client/**/*.ts', 'tools/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    plugins: { 'import-x': importX },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      // import-x reads the modules an import leads to with the TypeScript parser, resolving `.js` to `.ts`.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: layer('domain'),
              from: './src',
              except: ['./domain'],
              message: 'src/domain is pure rules over plain data: it imports no other part of src/.',
            },
            {
              target: layer('sessions'),
              from: './src',
              except: ['./sessions', './domain'],
              message: 'src/sessions holds pure parsers: they import nothing but src/domain.',
            },
            {
              target: layer('graph'),
              from: [layer('operations'), layer('api'), layer('server')],
              message: 'src/graph sits below operations, api and server.',
            },
            {
              target: layer('operations'),
              from: [layer('api'), layer('server')],
              message: 'src/operations sits below api and server.',
            },
            {
              target: layer('api'),
              from: layer('server'),
              message: 'src/api sits below server.',
            },
            {
              // docs/architecture.md: only the DataLoaders and the thread's window pages read repositories.
              target: ['./src/api/!(loaders).ts', './src/api/resolvers/!(threads).ts'],
              from: './src/graph/repositories',
              message:
                'src/api goes through src/operations; only loaders.ts and resolvers/threads.ts read repositories (docs/architecture.md).',
            },
            {
              target: layer('viewer'),
              from: './src',
              except: ['./viewer'],
              message:
                'src/viewer is a browser client: it reads only the public GraphQL API, and imports nothing else of src/.',
            },
            {
              target: layer('mcp'),
              from: './src',
              except: ['./mcp'],
              message: 'src/mcp answers through the public GraphQL API (client/): it imports nothing else of src/.',
            },
            {
              target: './client',
              from: ['./src', './tools', './bench', './test'],
              message:
                'client/ stands alone (a product UI uses it without the service): it imports only its own files and generated types.',
            },
          ],
        },
      ],
      // Unused bindings are a mistake, except the ones named to say so.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      // Graph properties and parsed JSON are `unknown` narrowed to `{}`, which this rule takes for objects.
      '@typescript-eslint/no-base-to-string': 'off',
      // Every control-character regex here matches them on purpose: stored text refuses them.
      'no-control-regex': 'off',
    },
  },
  {
    // A value assumed present is checked where it is read (a named error, or a commented exception).
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // GraphQL clients read answers as untyped JSON (`any`); typing every answer would only restate the schema.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The lineage viewer: browser modules, typed by src/viewer/tsconfig.json (DOM, no Node).
    files: ['src/viewer/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
);
