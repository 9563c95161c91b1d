// ESLint for agon-web's page script: ES modules in the browser, run by scripts/test.sh
// (`npm ci && npm run lint` in agon-web). A warning fails as an error does.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    files: ['assets/js/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: globals.browser,
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      ...js.configs.recommended.rules,
      eqeqeq: 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'no-implicit-globals': 'error',
      'no-shadow': 'error',
      'no-use-before-define': ['error', { functions: false }],
      'no-unused-vars': ['error', { args: 'after-used' }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-console': 'error',
      curly: ['error', 'multi-line'],
      'no-throw-literal': 'error',
      'no-return-assign': 'error',
      'no-param-reassign': 'error',
    },
  },
];
