-- Accounts, keys and the vault's records. Secret values are AES-256-GCM blobs (see store/secrets.ts);
-- nothing in this file holds a secret in plain text. Times are epoch milliseconds from the injected clock.

CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL
) STRICT;

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  plan TEXT NOT NULL CHECK (plan IN ('Free', 'Plus', 'Enterprise')),
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- SHA-256 of the key; the key itself is shown once at creation and never stored.
  hash BLOB NOT NULL UNIQUE,
  signup_enabled INTEGER NOT NULL DEFAULT 0 CHECK (signup_enabled IN (0, 1)),
  scoped INTEGER NOT NULL DEFAULT 0 CHECK (scoped IN (0, 1)),
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  last_used_at INTEGER
) STRICT;
CREATE INDEX api_keys_account ON api_keys(account_id);

CREATE TABLE logins (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  website TEXT,
  email BLOB,
  username BLOB,
  password BLOB NOT NULL,
  totp_secret BLOB,
  created_by_key TEXT REFERENCES api_keys(id) ON DELETE SET NULL,
  password_owner_managed INTEGER NOT NULL DEFAULT 0 CHECK (password_owner_managed IN (0, 1)),
  created_at INTEGER NOT NULL,
  UNIQUE (account_id, label)
) STRICT;

CREATE TABLE login_extra_sites (
  login_id TEXT NOT NULL REFERENCES logins(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  PRIMARY KEY (login_id, host)
) STRICT, WITHOUT ROWID;

-- A scoped key's own list of logins.
CREATE TABLE key_logins (
  key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  login_id TEXT NOT NULL REFERENCES logins(id) ON DELETE CASCADE,
  PRIMARY KEY (key_id, login_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE cards (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  number BLOB NOT NULL,
  any_site INTEGER NOT NULL CHECK (any_site IN (0, 1)),
  agent INTEGER NOT NULL DEFAULT 0 CHECK (agent IN (0, 1)),
  limits TEXT,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE card_sites (
  card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  list TEXT NOT NULL CHECK (list IN ('allow', 'block')),
  site TEXT NOT NULL,
  PRIMARY KEY (card_id, list, site)
) STRICT, WITHOUT ROWID;

CREATE TABLE identity_fields (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  field TEXT NOT NULL,
  value BLOB,
  PRIMARY KEY (account_id, field)
) STRICT, WITHOUT ROWID;

CREATE TABLE addresses (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (account_id, label)
) STRICT;

CREATE TABLE address_fields (
  address_id TEXT NOT NULL REFERENCES addresses(id) ON DELETE CASCADE,
  field TEXT NOT NULL,
  value BLOB,
  PRIMARY KEY (address_id, field)
) STRICT, WITHOUT ROWID;

-- Every token ever issued. A token names one field of one record; deleting the record leaves
-- the token dangling on purpose (it then resolves to token_not_found).
CREATE TABLE tokens (
  token TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  record_id TEXT NOT NULL,
  field TEXT NOT NULL,
  UNIQUE (kind, record_id, field)
) STRICT;
CREATE INDEX tokens_record ON tokens(record_id);

-- Fixed and anchored windows: one row per (limit, subject, window start).
CREATE TABLE counters (
  limit_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (limit_id, subject, window_start)
) STRICT, WITHOUT ROWID;

-- Rolling windows: one row per counted event.
CREATE TABLE counter_events (
  limit_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX counter_events_subject ON counter_events(limit_id, subject, at);
