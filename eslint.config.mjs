// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import astro from 'eslint-plugin-astro';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.astro/**',
      'storage/**',
      'node_modules/**',
      'server/seed/demo/**',
      'scripts/demo-assets/**',
    ],
  },
  js.configs.recommended,
  // Type-aware rules (as the Immich server uses): a promise nobody awaits, a promise handed to a
  // callback that ignores it, a switch that forgets a case.
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A `default:` covers the rest of a union on purpose (Stripe's hundreds of event types); a switch
      // without one must still name every case.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      // As only-throw-error allows by default: a caught error of unknown type may be passed on as it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  // The pages and layouts: astro-eslint-parser hands their frontmatter and <script>s to typescript-eslint.
  ...astro.configs['flat/recommended'],
  {
    // The type-aware rules need a TypeScript program, which a component's virtual files are not part of:
    // the frontmatter and scripts get every other rule (`astro check` in the build types them).
    files: ['**/*.astro', '**/*.astro/*.ts', '**/*.astro/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Jest's asymmetric matchers (expect.any(), expect.stringMatching(), …) are typed `any` and sit
    // inside the expected objects.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Plain JavaScript (scripts, configs) has no types to check against.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.commonjs },
  },
);
