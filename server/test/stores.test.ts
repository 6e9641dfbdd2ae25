import { describeStore } from './store-behaviour.js';

// The store's behaviour on SQLite; the same tests on PostgreSQL are in stores.e2e.test.ts.
describeStore('sqlite');
