-- The schema of SQLite's migrations 0001 to 0010, for PostgreSQL, in one step: a PostgreSQL database
-- starts at version 10, and every later migration has a file of the same number in each dialect.
-- Text compares as SQLite's BINARY does (UTF-8 bytes, COLLATE "C"); integers are 64-bit (times are
-- epoch milliseconds); secrets are the same AES-256-GCM blobs (see store/secrets.ts). Tables whose
-- reads order by insertion have a `rowid`, as SQLite's do, so the store's SQL is the same text.

CREATE TABLE meta (
  key TEXT COLLATE "C" PRIMARY KEY,
  value BYTEA NOT NULL
);

CREATE TABLE accounts (
  id TEXT COLLATE "C" PRIMARY KEY,
  plan TEXT COLLATE "C" NOT NULL CHECK (plan IN ('Free', 'Plus', 'Enterprise')),
  name TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  hash BYTEA NOT NULL UNIQUE,
  signup_enabled BIGINT NOT NULL DEFAULT 0 CHECK (signup_enabled IN (0, 1)),
  scoped BIGINT NOT NULL DEFAULT 0 CHECK (scoped IN (0, 1)),
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  last_used_at BIGINT
);
CREATE INDEX api_keys_account ON api_keys(account_id);

CREATE TABLE logins (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  label TEXT COLLATE "C" NOT NULL,
  website TEXT COLLATE "C",
  email BYTEA,
  username BYTEA,
  password BYTEA NOT NULL,
  totp_secret BYTEA,
  created_by_key TEXT COLLATE "C" REFERENCES api_keys(id) ON DELETE SET NULL,
  password_owner_managed BIGINT NOT NULL DEFAULT 0 CHECK (password_owner_managed IN (0, 1)),
  created_at BIGINT NOT NULL,
  UNIQUE (account_id, label)
);

CREATE TABLE login_extra_sites (
  login_id TEXT COLLATE "C" NOT NULL REFERENCES logins(id) ON DELETE CASCADE,
  host TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (login_id, host)
);

CREATE TABLE key_logins (
  key_id TEXT COLLATE "C" NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  login_id TEXT COLLATE "C" NOT NULL REFERENCES logins(id) ON DELETE CASCADE,
  PRIMARY KEY (key_id, login_id)
);

CREATE TABLE cards (
  rowid BIGINT GENERATED ALWAYS AS IDENTITY,
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  number BYTEA NOT NULL,
  any_site BIGINT NOT NULL CHECK (any_site IN (0, 1)),
  agent BIGINT NOT NULL DEFAULT 0 CHECK (agent IN (0, 1)),
  limits TEXT COLLATE "C",
  created_at BIGINT NOT NULL
);
CREATE INDEX cards_account ON cards(account_id);

CREATE TABLE card_sites (
  card_id TEXT COLLATE "C" NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  list TEXT COLLATE "C" NOT NULL CHECK (list IN ('allow', 'block')),
  site TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (card_id, list, site)
);

CREATE TABLE identity_fields (
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  field TEXT COLLATE "C" NOT NULL,
  value BYTEA,
  PRIMARY KEY (account_id, field)
);

CREATE TABLE addresses (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  label TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (account_id, label)
);

CREATE TABLE address_fields (
  address_id TEXT COLLATE "C" NOT NULL REFERENCES addresses(id) ON DELETE CASCADE,
  field TEXT COLLATE "C" NOT NULL,
  value BYTEA,
  PRIMARY KEY (address_id, field)
);

CREATE TABLE tokens (
  token TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT COLLATE "C" NOT NULL,
  record_id TEXT COLLATE "C" NOT NULL,
  field TEXT COLLATE "C" NOT NULL,
  UNIQUE (kind, record_id, field)
);
CREATE INDEX tokens_record ON tokens(record_id);
CREATE INDEX tokens_account ON tokens(account_id, record_id, field, token);

CREATE TABLE counters (
  limit_id TEXT COLLATE "C" NOT NULL,
  subject TEXT COLLATE "C" NOT NULL,
  window_start BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (limit_id, subject, window_start)
);

CREATE TABLE counter_events (
  rowid BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  limit_id TEXT COLLATE "C" NOT NULL,
  subject TEXT COLLATE "C" NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX counter_events_subject ON counter_events(limit_id, subject, at);

CREATE TABLE recipe_submissions (
  rowid BIGINT GENERATED ALWAYS AS IDENTITY,
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_id TEXT COLLATE "C" REFERENCES api_keys(id) ON DELETE SET NULL,
  recipe_key TEXT COLLATE "C" NOT NULL,
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('merchant', 'platform', 'signup', 'signup-platform')),
  platform TEXT COLLATE "C",
  body TEXT COLLATE "C" NOT NULL,
  live_status TEXT COLLATE "C" NOT NULL CHECK (live_status IN ('verified', 'partial', 'unverified', 'dead-end')),
  evidence TEXT COLLATE "C",
  note TEXT COLLATE "C",
  verification_requested BIGINT NOT NULL CHECK (verification_requested IN (0, 1)),
  status TEXT COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'merged', 'rejected', 'needs_human')),
  verdict TEXT COLLATE "C" NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  live_since BIGINT NOT NULL
);
CREATE INDEX recipe_submissions_account ON recipe_submissions(account_id);
CREATE INDEX recipe_submissions_key ON recipe_submissions(recipe_key, live_since);
CREATE INDEX recipe_submissions_pending ON recipe_submissions(status) WHERE status = 'pending';

CREATE VIEW contributed_recipes AS
SELECT submission_id, key, kind, platform, status, body, evidence
FROM (
  SELECT s.id AS submission_id, s.recipe_key AS key, s.kind, s.platform, s.live_status AS status, s.body, s.evidence,
    ROW_NUMBER() OVER (PARTITION BY s.recipe_key ORDER BY s.live_since DESC, s.rowid DESC) AS newest
  FROM recipe_submissions AS s
  WHERE s.status <> 'rejected'
) AS ranked
WHERE newest = 1;

CREATE TABLE signup_requests (
  rowid BIGINT GENERATED ALWAYS AS IDENTITY,
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_id TEXT COLLATE "C" REFERENCES api_keys(id) ON DELETE SET NULL,
  website TEXT COLLATE "C" NOT NULL,
  email BYTEA NOT NULL,
  username BYTEA,
  rules TEXT COLLATE "C" NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
  preapproved BIGINT NOT NULL DEFAULT 0 CHECK (preapproved IN (0, 1)),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  decided_at BIGINT,
  login_id TEXT COLLATE "C" REFERENCES logins(id) ON DELETE SET NULL,
  password_policy TEXT COLLATE "C",
  approval_failure TEXT COLLATE "C"
);
CREATE INDEX signup_requests_pending ON signup_requests(account_id, status, expires_at);

CREATE TABLE signup_preapprovals (
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  site TEXT COLLATE "C" NOT NULL,
  email BYTEA NOT NULL,
  signups BIGINT NOT NULL DEFAULT 0,
  added_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, site)
);

CREATE TABLE account_links (
  rowid BIGINT GENERATED ALWAYS AS IDENTITY,
  token_hash BYTEA PRIMARY KEY,
  token BYTEA NOT NULL,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('purchase', 'signup', 'cvv', 'challenge')),
  signup_request_id TEXT COLLATE "C" REFERENCES signup_requests(id) ON DELETE CASCADE,
  details TEXT COLLATE "C" NOT NULL DEFAULT '{}',
  status TEXT COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'opened')),
  decision_at TEXT COLLATE "C" CHECK (decision_at IN ('declared', 'page')),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX account_links_account ON account_links(account_id, created_at);
CREATE INDEX account_links_request ON account_links(signup_request_id);

CREATE TABLE card_webhooks (
  card_id TEXT COLLATE "C" PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  url TEXT COLLATE "C",
  secret BYTEA NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE webhook_deliveries (
  rowid BIGINT GENERATED ALWAYS AS IDENTITY,
  id TEXT COLLATE "C" PRIMARY KEY,
  card_id TEXT COLLATE "C" NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  event_id TEXT COLLATE "C" NOT NULL,
  event_type TEXT COLLATE "C" NOT NULL,
  url TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_card ON webhook_deliveries(card_id, created_at);

CREATE TABLE webhook_attempts (
  delivery_id TEXT COLLATE "C" NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt BIGINT NOT NULL,
  started_at BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  status_code BIGINT,
  outcome TEXT COLLATE "C" NOT NULL CHECK (outcome IN ('delivered', 'timed_out', 'redirected', 'refused', 'connection_failed')),
  detail TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);

-- The versions of what kept reads depend on, and the rows of the logins and tokens parts changed at
-- each version (SQLite's 0006-data-scopes, 0008-password-scope and 0009-row-versions say why).
CREATE TABLE data_scopes (
  scope TEXT COLLATE "C" PRIMARY KEY,
  version BIGINT NOT NULL
);

CREATE TABLE row_versions (
  scope TEXT COLLATE "C" NOT NULL,
  row_id TEXT COLLATE "C" NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (scope, row_id)
);
CREATE INDEX row_versions_since ON row_versions (scope, version);

CREATE FUNCTION raise_scope(p_scope TEXT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO data_scopes (scope, version) VALUES (p_scope, 1)
  ON CONFLICT (scope) DO UPDATE SET version = data_scopes.version + 1
$$;

-- An account's scope, with one of its parts when given, and the changed row of that part when given.
CREATE FUNCTION raise_account(p_account TEXT, p_part TEXT, p_row TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_account IS NULL THEN
    RETURN;
  END IF;
  PERFORM raise_scope('account:' || p_account);
  IF p_part IS NULL THEN
    RETURN;
  END IF;
  PERFORM raise_scope(p_part || ':' || p_account);
  IF p_row IS NOT NULL THEN
    INSERT INTO row_versions (scope, row_id, version)
    SELECT d.scope, p_row, d.version FROM data_scopes d WHERE d.scope = p_part || ':' || p_account
    ON CONFLICT (scope, row_id) DO UPDATE SET version = EXCLUDED.version;
  END IF;
END
$$;

CREATE FUNCTION accounts_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account(OLD.id, NULL, NULL); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account(NEW.id, NULL, NULL); END IF;
  PERFORM raise_scope('keys');
  RETURN NULL;
END
$$;
CREATE TRIGGER accounts_scope AFTER INSERT OR UPDATE OR DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION accounts_scope();

CREATE FUNCTION api_keys_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account(OLD.account_id, NULL, NULL); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account(NEW.account_id, NULL, NULL); END IF;
  PERFORM raise_scope('keys');
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_scope_insert_delete AFTER INSERT OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION api_keys_scope();
-- A key's last-used time is bookkeeping and raises nothing.
CREATE TRIGGER api_keys_scope_update AFTER UPDATE OF id, account_id, name, hash, signup_enabled, scoped, created_at, revoked_at ON api_keys
FOR EACH ROW EXECUTE FUNCTION api_keys_scope();

-- A row of a table with an account_id column: the account, and the part named by the trigger.
CREATE FUNCTION part_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account(OLD.account_id, TG_ARGV[0], NULL); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account(NEW.account_id, TG_ARGV[0], NULL); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER cards_scope AFTER INSERT OR UPDATE OR DELETE ON cards FOR EACH ROW EXECUTE FUNCTION part_scope('cards');
CREATE TRIGGER identity_fields_scope AFTER INSERT OR UPDATE OR DELETE ON identity_fields FOR EACH ROW EXECUTE FUNCTION part_scope('profile');
CREATE TRIGGER addresses_scope AFTER INSERT OR UPDATE OR DELETE ON addresses FOR EACH ROW EXECUTE FUNCTION part_scope('profile');

CREATE FUNCTION logins_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD.id, OLD.account_id) IS DISTINCT FROM (NEW.id, NEW.account_id)) THEN
    PERFORM raise_account(OLD.account_id, 'logins', OLD.id);
  END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account(NEW.account_id, 'logins', NEW.id); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER logins_scope_insert_delete AFTER INSERT OR DELETE ON logins FOR EACH ROW EXECUTE FUNCTION logins_scope();
-- A password write raises nothing; a column added to logins later must be added here.
CREATE TRIGGER logins_scope_update AFTER UPDATE ON logins FOR EACH ROW
WHEN ((OLD.id, OLD.account_id, OLD.label, OLD.website, OLD.email, OLD.username, OLD.totp_secret, OLD.created_by_key, OLD.password_owner_managed, OLD.created_at)
  IS DISTINCT FROM (NEW.id, NEW.account_id, NEW.label, NEW.website, NEW.email, NEW.username, NEW.totp_secret, NEW.created_by_key, NEW.password_owner_managed, NEW.created_at))
EXECUTE FUNCTION logins_scope();

CREATE FUNCTION tokens_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD.record_id, OLD.account_id) IS DISTINCT FROM (NEW.record_id, NEW.account_id)) THEN
    PERFORM raise_account(OLD.account_id, 'tokens', OLD.record_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account(NEW.account_id, 'tokens', NEW.record_id); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER tokens_scope AFTER INSERT OR UPDATE OR DELETE ON tokens FOR EACH ROW EXECUTE FUNCTION tokens_scope();

CREATE FUNCTION login_extra_sites_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account((SELECT account_id FROM logins WHERE id = OLD.login_id), 'logins', OLD.login_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account((SELECT account_id FROM logins WHERE id = NEW.login_id), 'logins', NEW.login_id); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER login_extra_sites_scope AFTER INSERT OR UPDATE OR DELETE ON login_extra_sites FOR EACH ROW EXECUTE FUNCTION login_extra_sites_scope();

CREATE FUNCTION key_logins_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account((SELECT account_id FROM api_keys WHERE id = OLD.key_id), NULL, NULL); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account((SELECT account_id FROM api_keys WHERE id = NEW.key_id), NULL, NULL); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER key_logins_scope AFTER INSERT OR UPDATE OR DELETE ON key_logins FOR EACH ROW EXECUTE FUNCTION key_logins_scope();

CREATE FUNCTION card_sites_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account((SELECT account_id FROM cards WHERE id = OLD.card_id), 'cards', NULL); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account((SELECT account_id FROM cards WHERE id = NEW.card_id), 'cards', NULL); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER card_sites_scope AFTER INSERT OR UPDATE OR DELETE ON card_sites FOR EACH ROW EXECUTE FUNCTION card_sites_scope();

CREATE FUNCTION address_fields_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM raise_account((SELECT account_id FROM addresses WHERE id = OLD.address_id), 'profile', NULL); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM raise_account((SELECT account_id FROM addresses WHERE id = NEW.address_id), 'profile', NULL); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER address_fields_scope AFTER INSERT OR UPDATE OR DELETE ON address_fields FOR EACH ROW EXECUTE FUNCTION address_fields_scope();

CREATE FUNCTION registry_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM raise_scope('registry');
  RETURN NULL;
END
$$;
CREATE TRIGGER recipe_submissions_scope AFTER INSERT OR UPDATE OR DELETE ON recipe_submissions FOR EACH ROW EXECUTE FUNCTION registry_scope();

-- One row of pending signup requests per account (SQLite's 0007-pending-signups).
CREATE TABLE pending_signups (
  account_id TEXT COLLATE "C" PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  pending BIGINT NOT NULL
);

CREATE FUNCTION signup_requests_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- A plain update: when the account itself is being deleted, its row may already be gone.
    UPDATE pending_signups SET pending = pending - 1 WHERE account_id = OLD.account_id;
  ELSE
    INSERT INTO pending_signups (account_id, pending) VALUES (NEW.account_id, CASE WHEN NEW.status = 'pending' THEN 1 ELSE 0 END)
    ON CONFLICT (account_id) DO UPDATE SET pending = pending_signups.pending + CASE WHEN NEW.status = 'pending' THEN 1 ELSE -1 END;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER signup_requests_pending_insert AFTER INSERT ON signup_requests FOR EACH ROW
WHEN (NEW.status = 'pending') EXECUTE FUNCTION signup_requests_pending();
CREATE TRIGGER signup_requests_pending_update AFTER UPDATE OF status ON signup_requests FOR EACH ROW
WHEN ((OLD.status = 'pending') <> (NEW.status = 'pending')) EXECUTE FUNCTION signup_requests_pending();
CREATE TRIGGER signup_requests_pending_delete AFTER DELETE ON signup_requests FOR EACH ROW
WHEN (OLD.status = 'pending') EXECUTE FUNCTION signup_requests_pending();

-- One row of logins per account (SQLite's 0010-login-counts).
CREATE TABLE login_counts (
  account_id TEXT COLLATE "C" PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  logins BIGINT NOT NULL
);

CREATE FUNCTION logins_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE login_counts SET logins = logins - 1 WHERE account_id = OLD.account_id;
  ELSE
    INSERT INTO login_counts (account_id, logins) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET logins = login_counts.logins + 1;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER logins_count AFTER INSERT OR DELETE ON logins FOR EACH ROW EXECUTE FUNCTION logins_count();
