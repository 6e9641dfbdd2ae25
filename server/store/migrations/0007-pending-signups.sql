-- The pending signup requests of each account, kept as one row per account, so that a filing asks
-- one row whether the ceiling may be passed instead of counting the account's requests. The row
-- counts requests stored as pending, expired or not (an expired request is never rewritten): when
-- it is within the ceiling, so is the number of live ones; only above it are they counted.
CREATE TABLE pending_signups (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  pending INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

INSERT INTO pending_signups (account_id, pending)
SELECT account_id, COUNT(*) FROM signup_requests WHERE status = 'pending' GROUP BY account_id;

CREATE TRIGGER signup_requests_pending_insert AFTER INSERT ON signup_requests WHEN NEW.status = 'pending' BEGIN
  INSERT INTO pending_signups (account_id, pending) VALUES (NEW.account_id, 1)
  ON CONFLICT (account_id) DO UPDATE SET pending = pending + 1;
END;

CREATE TRIGGER signup_requests_pending_update AFTER UPDATE OF status ON signup_requests
WHEN (OLD.status = 'pending') <> (NEW.status = 'pending') BEGIN
  INSERT INTO pending_signups (account_id, pending) VALUES (NEW.account_id, CASE WHEN NEW.status = 'pending' THEN 1 ELSE 0 END)
  ON CONFLICT (account_id) DO UPDATE SET pending = pending + CASE WHEN NEW.status = 'pending' THEN 1 ELSE -1 END;
END;

-- A plain update: when the account itself is being deleted, its row may already be gone.
CREATE TRIGGER signup_requests_pending_delete AFTER DELETE ON signup_requests WHEN OLD.status = 'pending' BEGIN
  UPDATE pending_signups SET pending = pending - 1 WHERE account_id = OLD.account_id;
END;
