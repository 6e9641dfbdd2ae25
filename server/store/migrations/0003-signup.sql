-- The signup workflow (sections 2.5, 3, 4.6-4.7), the account's pre-approved signup list (4.6, 8.4)
-- and the account-holder links (4.11). Emails and usernames are sealed like the logins' own;
-- link tokens are credentials and are looked up by hash, never by their plain value.

CREATE TABLE signup_requests (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- The filing key: the only key that may poll, and the creating key of the login.
  key_id TEXT REFERENCES api_keys(id) ON DELETE SET NULL,
  website TEXT NOT NULL,
  email BLOB NOT NULL,
  username BLOB,
  -- The password rules read from the request (JSON), applied when the login is created.
  rules TEXT NOT NULL,
  -- `expired` is never stored: a pending request past expires_at is expired (no sweeper to race).
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
  preapproved INTEGER NOT NULL DEFAULT 0 CHECK (preapproved IN (0, 1)),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  decided_at INTEGER,
  -- NULL once the login is deleted: the poll then answers scope_denied.
  login_id TEXT REFERENCES logins(id) ON DELETE SET NULL,
  password_policy TEXT,
  -- Why the last approval could not complete (label_unavailable, scope_full, login_limit,
  -- daily_limit); shown to the account holder only, never to the agent.
  approval_failure TEXT
) STRICT;
CREATE INDEX signup_requests_pending ON signup_requests(account_id, status, expires_at);

-- The pre-approved signup list: a site with the exact email the account holder saved for it.
-- `signups` counts pre-approved signups since the site was listed with this email; removing and
-- re-adding the site, or saving it with another email, starts it again at 0.
CREATE TABLE signup_preapprovals (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  site TEXT NOT NULL,
  email BLOB NOT NULL,
  signups INTEGER NOT NULL DEFAULT 0,
  added_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, site)
) STRICT, WITHOUT ROWID;

-- Single-use, self-expiring links for the account holder. Deleting the account deletes its links,
-- so a link of a deleted account reads as not found.
CREATE TABLE account_links (
  token_hash BLOB PRIMARY KEY,
  -- The token as delivered to the account holder, sealed (the fixture surface reads it back).
  token BLOB NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('purchase', 'signup', 'cvv', 'challenge')),
  signup_request_id TEXT REFERENCES signup_requests(id) ON DELETE CASCADE,
  -- Kind-specific facts as JSON (a purchase hold's kind and offersDeclared, ...).
  details TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied', 'opened')),
  -- The `at` of a purchase decision: approve against the declared total or the page total.
  decision_at TEXT CHECK (decision_at IN ('declared', 'page')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) STRICT;
CREATE INDEX account_links_account ON account_links(account_id, created_at);
CREATE INDEX account_links_request ON account_links(signup_request_id);
