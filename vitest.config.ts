import { defineConfig } from 'vitest/config';

// Two projects: unit tests beside the code (pure logic, no servers, seconds) and the integration
// tests in test/ (real FerretDB, Redis and local servers, started once by the global setup).
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['libs/**/*.test.ts', 'apps/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
