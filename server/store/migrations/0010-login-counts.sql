-- The logins of each account, kept as one row per account, so that a filing and an approval ask
-- one row whether the account may hold another login instead of counting up to its ceiling. A
-- login never moves to another account, so its insert and its delete are all that change a count.
CREATE TABLE login_counts (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  logins INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

INSERT INTO login_counts (account_id, logins)
SELECT account_id, COUNT(*) FROM logins GROUP BY account_id;

CREATE TRIGGER logins_count_insert AFTER INSERT ON logins BEGIN
  INSERT INTO login_counts (account_id, logins) VALUES (NEW.account_id, 1)
  ON CONFLICT (account_id) DO UPDATE SET logins = logins + 1;
END;

-- A plain update: when the account itself is being deleted, its row may already be gone.
CREATE TRIGGER logins_count_delete AFTER DELETE ON logins BEGIN
  UPDATE login_counts SET logins = logins - 1 WHERE account_id = OLD.account_id;
END;
