import { describeStore } from './store-behaviour.js';

// The store's behaviour on PostgreSQL, on the tests' cluster (server/test/postgres-setup.ts); the
// same tests on SQLite are in stores.test.ts.
describeStore('postgres');
