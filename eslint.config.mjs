// ESLint flat config: typescript-eslint's recommended rules; formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', 'test/fixtures/**', '**/.scratch/**', 'bench/trees/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        URL: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // The layout's promises: each src folder is used through its index (its public surface), and
    // only the bridge, bridgeMiddleware and the WebSocket upgrades know Node's http objects.
    files: ['src/**/*.ts'],
    // src/types/handlers.ts names Node's request and response types in the public NodeContext type.
    ignores: ['src/bridge/**', 'src/bridge-middleware/**', 'src/websocket/**', 'src/types/handlers.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'node:http', message: 'Only src/bridge knows Node http objects; go through it.' },
            { name: 'http', message: 'Only src/bridge knows Node http objects; go through it.' },
          ],
          patterns: [
            { group: ['../*/*', './*/*'], message: 'Import through the folder index (its public surface).' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/bridge/**/*.ts', 'src/bridge-middleware/**/*.ts', 'src/websocket/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*/*', './*/*'], message: 'Import through the folder index (its public surface).' },
          ],
        },
      ],
    },
  },
);
