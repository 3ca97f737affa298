// Jest's setup for the API specs: with TEST_SQL_LOG set (npm test's SQLite pass), each spec file's SQL
// shapes go to that folder (scripts/sql-shapes.cjs, checked by scripts/sql-coverage.mjs).
import { logBothEngines } from '../../scripts/sql-shapes.cjs';

const dir = process.env.TEST_SQL_LOG;
const spec = expect.getState().testPath;
if (dir && spec) logBothEngines(dir, spec);
