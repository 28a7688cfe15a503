/**
 * The endpoint tree the integration suites share. test/integration/from-build.test.ts runs those suites again
 * with FIXTURE_APP_DIR naming a build of it (`express-file-endpoints build`), which must behave the same.
 */
import path from 'node:path';

export const FIXTURE_APP_DIR = 'FIXTURE_APP_DIR';

export const fixtureApp = process.env[FIXTURE_APP_DIR] ?? path.join(__dirname, '../fixtures/app');
